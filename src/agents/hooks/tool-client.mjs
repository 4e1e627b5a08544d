// The hook's end of a hook tool (Juju's jujuc client): every tool in the tools
// directory is a /bin/sh wrapper running `node tool-client.mjs <tool> "$@"`.
// It sends the tool's name, arguments, working directory and the hook's
// context id (JUJU_CONTEXT_ID) to the unit agent's socket
// (JUJU_AGENT_SOCKET_ADDRESS), forwards its standard input if the agent asks
// for it, prints the answer's stdout and stderr, and exits with its code. Plain
// JavaScript with Node's built-ins only: a tool call costs one bare Node start.
// The protocol is described in tool-server.ts.
import { connect } from "node:net";

const [tool, ...args] = process.argv.slice(2);

function fail(message) {
  process.stderr.write(`ERROR ${message}\n`);
  process.exitCode = 1;
}

function readStdin() {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk) => {
      text += chunk;
    });
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

function call(socketPath, request) {
  const socket = connect(socketPath);
  let buffered = "";
  let answered = false;
  socket.setEncoding("utf8");
  socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
  socket.on("data", (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      if (message.stdin === true) {
        readStdin().then(
          (stdin) => socket.write(`${JSON.stringify({ stdin })}\n`),
          (error) => {
            fail(`cannot read stdin: ${error.message}`);
            socket.destroy();
          },
        );
      } else {
        answered = true;
        process.stdout.write(message.stdout);
        process.stderr.write(message.stderr);
        process.exitCode = message.code;
      }
    }
  });
  socket.on("error", (error) => fail(`cannot reach the unit agent at ${socketPath}: ${error.message}`));
  socket.on("close", () => {
    if (!answered && process.exitCode === undefined) fail("the unit agent closed the connection without answering");
  });
}

const contextId = process.env.JUJU_CONTEXT_ID;
const socketPath = process.env.JUJU_AGENT_SOCKET_ADDRESS;
if (!contextId) fail("JUJU_CONTEXT_ID not set");
else if (!socketPath) fail("JUJU_AGENT_SOCKET_ADDRESS not set");
else call(socketPath, { context: contextId, tool, args, cwd: process.cwd() });

// The server runs as a production process unless its environment says otherwise. graphql-js reads NODE_ENV once, when
// it loads: outside production each of its type checks (isInputType, isObjectType, …) that answers no looks for a
// copy of graphql loaded twice, and in a profile of 8 clients' setConstraints those checks were about 1% of the
// server's CPU, with half of the variables' coercion. So this module is main.ts's first import: it runs before
// anything loads graphql. Tests (vitest sets NODE_ENV=test) and a NODE_ENV given to `npm start` keep theirs.
process.env.NODE_ENV ??= "production";

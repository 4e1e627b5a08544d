// Specification of Juju's constraint syntax as Lifeline parses, prints and
// merges it. Seed 004 ("What We Run, and Why"): constraints are stored for the
// model and for each application; when a unit is added "every constraint not
// set on the service is taken from the environment (or left unset, if not
// specified at all)".
import { describe, expect, it } from "vitest";
import type { LifelineError } from "../src/core/errors.js";
import { type Constraints, formatConstraints, mergeConstraints, parseConstraints } from "../src/model/constraints.js";
import { expectRefusedWith } from "./support/refusal.js";

/** Asserts `text` is refused with INVALID_CONSTRAINTS and a message naming every fragment. */
function expectRefused(text: string, ...named: string[]): LifelineError {
  const error = expectRefusedWith("INVALID_CONSTRAINTS", () => parseConstraints(text));
  for (const fragment of named) expect(error.message).toContain(fragment);
  return error;
}

describe("parseConstraints: Juju's keys", () => {
  it("mem parses a size and stores megabytes", () => {
    expect(parseConstraints("mem=2G")).toEqual({ mem: 2048 });
  });

  it("cores parses a non-negative integer", () => {
    expect(parseConstraints("cores=4")).toEqual({ cores: 4 });
  });

  it("cpu-power parses a non-negative integer into cpuPower", () => {
    expect(parseConstraints("cpu-power=400")).toEqual({ cpuPower: 400 });
  });

  it("root-disk parses a size into rootDisk, in megabytes", () => {
    expect(parseConstraints("root-disk=8G")).toEqual({ rootDisk: 8192 });
  });

  it("arch accepts each known architecture", () => {
    for (const arch of ["amd64", "arm64", "ppc64el", "s390x", "riscv64"]) expect(parseConstraints(`arch=${arch}`)).toEqual({ arch });
  });

  it("tags parses a comma-separated list, keeping ^negations", () => {
    expect(parseConstraints("tags=ssd,^slow")).toEqual({ tags: ["ssd", "^slow"] });
  });

  it("zones parses a comma-separated list", () => {
    expect(parseConstraints("zones=a,b")).toEqual({ zones: ["a", "b"] });
  });

  it("instance-type parses a free-form string into instanceType", () => {
    expect(parseConstraints("instance-type=m5.large")).toEqual({ instanceType: "m5.large" });
  });

  it("container accepts lxd and kvm", () => {
    expect(parseConstraints("container=lxd")).toEqual({ container: "lxd" });
    expect(parseConstraints("container=kvm")).toEqual({ container: "kvm" });
  });

  it("parses every key together (the seed's `mem=2G cpu-power=400` style)", () => {
    expect(
      parseConstraints(
        "mem=2G cores=4 cpu-power=400 root-disk=16G arch=arm64 tags=ssd,^slow zones=a,b instance-type=m5.large container=lxd",
      ),
    ).toEqual({
      mem: 2048,
      cores: 4,
      cpuPower: 400,
      rootDisk: 16384,
      arch: "arm64",
      tags: ["ssd", "^slow"],
      zones: ["a", "b"],
      instanceType: "m5.large",
      container: "lxd",
    });
  });

  it("cpu-cores is accepted as Juju's older spelling of cores", () => {
    expect(parseConstraints("cpu-cores=2")).toEqual({ cores: 2 });
  });
});

describe("parseConstraints: sizes", () => {
  it("mem accepts M, G, T and P suffixes and stores megabytes", () => {
    expect(parseConstraints("mem=512M")).toEqual({ mem: 512 });
    expect(parseConstraints("mem=2G")).toEqual({ mem: 2 * 1024 });
    expect(parseConstraints("mem=3T")).toEqual({ mem: 3 * 1024 ** 2 });
    expect(parseConstraints("mem=1P")).toEqual({ mem: 1024 ** 3 });
  });

  it("root-disk accepts the same M, G, T and P suffixes", () => {
    expect(parseConstraints("root-disk=100M")).toEqual({ rootDisk: 100 });
    expect(parseConstraints("root-disk=1T")).toEqual({ rootDisk: 1024 ** 2 });
    expect(parseConstraints("root-disk=1P")).toEqual({ rootDisk: 1024 ** 3 });
  });

  it("a size or count that would not read back as a GraphQL Int (2^31 - 1) is refused when written, not when read", () => {
    expectRefused("root-disk=2P", '"2P"', "2147483647 MiB");
    expectRefused("mem=4000000G", '"4000000G"');
    expectRefused("cores=99999999999", '"99999999999"');
    expectRefused(`cores=1${"0".repeat(400)}`, "(401 characters)");
    expect(parseConstraints("cores=2147483647")).toEqual({ cores: 2 ** 31 - 1 });
  });

  it("instance-type, tags and zones are bounded (128 characters a name, 64 items, 4096 characters in all)", () => {
    expectRefused(`instance-type=${"x".repeat(129)}`, '"instance-type"', "longer than 128");
    expectRefused(`tags=${Array.from({ length: 65 }, (_, i) => `t${i}`).join(",")}`, "65 items");
    expectRefused(`zones=${"z".repeat(129)}`, '"zones"');
    expectRefused(`tags=${"t,".repeat(3000)}t`, "at most 4096");
  });

  it("a size without a suffix is in megabytes", () => {
    expect(parseConstraints("mem=4096")).toEqual({ mem: 4096 });
    expect(parseConstraints("root-disk=10")).toEqual({ rootDisk: 10 });
  });

  it("fractional sizes are converted to megabytes (1.5G → 1536)", () => {
    expect(parseConstraints("mem=1.5G")).toEqual({ mem: 1536 });
    expect(parseConstraints("root-disk=0.5T")).toEqual({ rootDisk: 512 * 1024 });
  });

  it("a fractional size that is not a whole number of megabytes rounds up", () => {
    expect(parseConstraints("mem=1.5")).toEqual({ mem: 2 });
  });
});

describe("parseConstraints: layout and empty values", () => {
  it("empty input gives no constraints", () => {
    expect(parseConstraints("")).toEqual({});
  });

  it("whitespace-only input gives no constraints", () => {
    expect(parseConstraints("   \t \n ")).toEqual({});
  });

  it("extra whitespace around and between words is ignored", () => {
    expect(parseConstraints("  mem=2G \t  cores=4\n")).toEqual({ mem: 2048, cores: 4 });
  });

  it("an empty size value (mem=) is kept as an explicit unset, not dropped", () => {
    const parsed = parseConstraints("mem=");
    expect(parsed).toHaveProperty("mem");
    expect(parsed).toEqual({ mem: 0 });
  });

  it("every key accepts an empty value as an explicit unset", () => {
    expect(parseConstraints("mem= cores= cpu-power= root-disk= arch= tags= zones= instance-type= container=")).toEqual({
      mem: 0,
      cores: 0,
      cpuPower: 0,
      rootDisk: 0,
      arch: "",
      tags: [],
      zones: [],
      instanceType: "",
      container: "",
    });
  });
});

describe("parseConstraints: refusals (INVALID_CONSTRAINTS, naming the key/value)", () => {
  it("refuses an unknown key, naming it and listing the known keys", () => {
    const error = expectRefused("memory=2G", '"memory"', "mem", "cores", "instance-type");
    expect(error.details).toEqual({ key: "memory" });
  });

  it("refuses a word without `=`, naming the word", () => {
    expectRefused("mem=2G cores", '"cores"', "key=value");
  });

  it("refuses a word with an empty key (=2G)", () => {
    expectRefused("=2G", '"=2G"');
  });

  it("refuses a key given twice", () => {
    const error = expectRefused("mem=1G mem=2G", '"mem"', "already set");
    expect(error.details).toEqual({ key: "mem" });
  });

  it("refuses cores given twice through its alias cpu-cores", () => {
    expectRefused("cores=2 cpu-cores=4", '"cpu-cores"', "already set");
  });

  it("refuses a size with an unknown suffix", () => {
    const error = expectRefused("mem=2X", '"mem"', '"2X"');
    expect(error.details).toEqual({ key: "mem" });
  });

  it("refuses a negative size", () => {
    expectRefused("root-disk=-1G", '"root-disk"', '"-1G"');
  });

  it("refuses a size that is only a suffix", () => {
    expectRefused("mem=G", '"mem"', '"G"');
  });

  it("refuses a lower-case size suffix", () => {
    expectRefused("mem=2g", '"mem"', '"2g"');
  });

  it("refuses negative cores", () => {
    const error = expectRefused("cores=-1", '"cores"', '"-1"', "non-negative integer");
    expect(error.details).toEqual({ key: "cores" });
  });

  it("refuses non-integer cores", () => {
    expectRefused("cores=1.5", '"cores"', '"1.5"', "integer");
  });

  it("refuses a non-integer cpu-power", () => {
    expectRefused("cpu-power=lots", '"cpu-power"', '"lots"');
  });

  it("refuses an unknown architecture, listing the known ones", () => {
    const error = expectRefused("arch=sparc", '"arch"', '"sparc"', "amd64", "arm64");
    expect(error.details).toEqual({ key: "arch" });
  });

  it("refuses an unknown container type, listing lxd and kvm", () => {
    const error = expectRefused("container=docker", '"container"', '"docker"', "lxd", "kvm");
    expect(error.details).toEqual({ key: "container" });
  });

  it("refuses an empty item in the middle of tags", () => {
    expectRefused("tags=ssd,,fast", '"tags"', '"ssd,,fast"');
  });

  it("refuses a trailing empty item in tags", () => {
    expectRefused("tags=ssd,", '"tags"', '"ssd,"');
  });

  it("refuses a bare negation (^) as a tags item", () => {
    expectRefused("tags=ssd,^", '"tags"', '"ssd,^"');
  });

  it("refuses a leading empty item in zones", () => {
    const error = expectRefused("zones=,a", '"zones"', '",a"');
    expect(error.details).toEqual({ key: "zones" });
  });
});

describe("formatConstraints", () => {
  it("prints nothing for no constraints", () => {
    expect(formatConstraints({})).toBe("");
  });

  it("prints sizes with the largest exact suffix", () => {
    expect(formatConstraints({ mem: 2048 })).toBe("mem=2G");
    expect(formatConstraints({ mem: 1536 })).toBe("mem=1536M");
    expect(formatConstraints({ rootDisk: 1024 ** 2 })).toBe("root-disk=1T");
    expect(formatConstraints({ rootDisk: 1024 ** 3 })).toBe("root-disk=1P");
  });

  it("prints an explicit unset as an empty value (mem=)", () => {
    expect(formatConstraints({ mem: 0, cores: 0, tags: [], arch: "" })).toBe("arch= cores= mem= tags=");
  });

  it("prints in Juju's key order whatever the object's key order", () => {
    const shuffled: Constraints = {
      zones: ["a", "b"],
      tags: ["ssd", "^slow"],
      rootDisk: 16384,
      mem: 2048,
      instanceType: "m5.large",
      cpuPower: 400,
      cores: 4,
      container: "lxd",
      arch: "amd64",
    };
    expect(formatConstraints(shuffled)).toBe(
      "arch=amd64 container=lxd cores=4 cpu-power=400 instance-type=m5.large mem=2G root-disk=16G tags=ssd,^slow zones=a,b",
    );
  });

  it("round-trips: parse(format(c)) deep-equals c", () => {
    const samples: Constraints[] = [
      {},
      { mem: 2048 },
      { mem: 1536, rootDisk: 3 * 1024 ** 2 },
      { mem: 1024 ** 3, cores: 16, cpuPower: 100 },
      { arch: "s390x", container: "kvm", instanceType: "t3.micro" },
      { tags: ["ssd", "^slow"], zones: ["us-east-1a", "us-east-1b"] },
      { mem: 0, cores: 0, cpuPower: 0, rootDisk: 0, arch: "", container: "", instanceType: "", tags: [], zones: [] },
      parseConstraints("mem=1.5G cpu-cores=2 root-disk=0.5T tags=a zones=z"),
    ];
    for (const c of samples) expect(parseConstraints(formatConstraints(c))).toEqual(c);
  });

  it("round-trips text already in canonical form: format(parse(t)) equals t", () => {
    const text = "arch=arm64 cores=2 mem=4G root-disk=20G tags=gpu zones=b";
    expect(formatConstraints(parseConstraints(text))).toBe(text);
  });
});

describe("mergeConstraints (seed 004: application over model)", () => {
  it("the application's value wins key by key", () => {
    expect(mergeConstraints({ mem: 2048, cores: 2 }, { mem: 3072 })).toEqual({ mem: 3072, cores: 2 });
  });

  it('"every constraint not set on the service is taken from the environment"', () => {
    const model = parseConstraints("mem=2G arch=amd64 zones=a,b");
    const application = parseConstraints("cores=4 tags=ssd");
    expect(mergeConstraints(model, application)).toEqual({
      mem: 2048,
      arch: "amd64",
      zones: ["a", "b"],
      cores: 4,
      tags: ["ssd"],
    });
  });

  it('a key set on neither stays unset ("left unset, if not specified at all")', () => {
    const merged = mergeConstraints({ mem: 2048 }, { cores: 4 });
    expect(merged).not.toHaveProperty("rootDisk");
    expect(merged).toEqual({ mem: 2048, cores: 4 });
  });

  it("an explicitly empty application value (mem=) still wins over the model's", () => {
    const merged = mergeConstraints(parseConstraints("mem=2G tags=ssd"), parseConstraints("mem= tags="));
    expect(merged).toEqual({ mem: 0, tags: [] });
    expect(formatConstraints(merged)).toBe("mem= tags=");
  });

  it("with no application constraints the model's apply unchanged", () => {
    expect(mergeConstraints({ mem: 2048, arch: "arm64" }, {})).toEqual({ mem: 2048, arch: "arm64" });
  });

  it("with no model constraints the application's apply unchanged", () => {
    expect(mergeConstraints({}, { cores: 8 })).toEqual({ cores: 8 });
  });

  it("does not modify either input", () => {
    const model: Constraints = { mem: 2048, cores: 2 };
    const application: Constraints = { mem: 3072 };
    mergeConstraints(model, application);
    expect(model).toEqual({ mem: 2048, cores: 2 });
    expect(application).toEqual({ mem: 3072 });
  });
});

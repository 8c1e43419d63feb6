/** The fuzzer's own parts: mutants are reproducible from their case id, and cases are classified. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunCaseAsync } from "./case.js";
import { BuiltInSeeds } from "./corpus.js";
import { HashString, Mutate, Rng } from "./mutate.js";

const sample = BuiltInSeeds();
let dir: string;
beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bh-fuzztest-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("makes the same mutant from the same case id, and others from others", () => {
    const seed = sample.seeds[0];
    const a = Mutate(new Rng(HashString("1:7")), seed);
    const b = Mutate(new Rng(HashString("1:7")), seed);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(a.kinds).toEqual(b.kinds);
    const others = Array.from({ length: 20 }, (_, i) => Buffer.from(Mutate(new Rng(HashString(`1:${i + 100}`)), seed).bytes));
    expect(others.filter((o) => !o.equals(Buffer.from(seed.bytes))).length).toBeGreaterThan(15);
});

it("classifies a whole seed as ok and a truncated one as a clean error naming the file", async () => {
    for (const seed of sample.seeds) {
        const file = join(dir, `whole${seed.ext}`);
        writeFileSync(file, seed.bytes);
        expect([seed.name, await RunCaseAsync(file, seed.ext, seed.hasMotion, sample)]).toEqual([seed.name, { outcome: "ok", message: "" }]);
    }
    const bvh = sample.seeds.find((s) => s.ext === ".bvh")!;
    const file = join(dir, "cut.bvh");
    writeFileSync(file, bvh.bytes.subarray(0, bvh.bytes.length >> 1));
    const r = await RunCaseAsync(file, ".bvh", true, sample);
    expect(r.outcome).toBe("error");
    expect(r.message).toContain("cut.bvh:");
}, 120_000);

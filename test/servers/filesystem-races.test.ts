import { mkdirSync, readdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Roots } from "../../src/servers/filesystem/index.js";
import { listDirectory, openChecked } from "../../src/servers/filesystem/safe-open.js";
import { writeFileSafely } from "../../src/servers/filesystem/safe-write.js";
import { SECRET, useSandbox } from "../helpers/fs-sandbox.js";

const box = useSandbox();
let root = "";
let outside = "";
beforeEach(() => {
  ({ root, outside } = box);
});
const start = () => box.start();

describe("filesystem safety: check-then-use races", () => {
  it("an open re-checks what it opened: a final link is not followed, a swapped directory is caught", async () => {
    const roots = Roots.resolve([root]);
    // As if the path had been checked while it was inside, then swapped before the open.
    await expect(openChecked(roots, path.join(root, "link-out"), "x", "read")).rejects.toThrow(
      /is a symbolic link/,
    );
    await expect(openChecked(roots, path.join(root, "dir-out", "secret.txt"), "x", "read")).rejects.toThrow(
      /Access denied: "x" was swapped for a place outside/,
    );
    await expect(listDirectory(roots, path.join(root, "dir-out"), "x")).rejects.toThrow(/is not a directory/);
    await expect(listDirectory(roots, path.join(root, "dir-out", "inner"), "x")).rejects.toThrow(
      /Access denied/,
    );
  });

  it("a write whose directory was swapped after the check lands nowhere outside", async () => {
    const real = Roots.resolve([root]);
    const swapped = path.join(root, "swapped");
    symlinkSync(outside, swapped);
    // Roots whose check said the directory was inside (it was, a moment ago).
    const stale = (parent: string): Roots => {
      const roots = Object.create(real) as Roots;
      roots.entry = async () => ({ path: path.join(parent, "new.txt"), parent });
      return roots;
    };
    await expect(writeFileSafely(stale(swapped), "swapped/new.txt", "pwned")).rejects.toThrow(
      /Cannot write "swapped\/new.txt": its directory was removed or replaced \(by a link or a file\)/,
    );
    await expect(
      writeFileSafely(stale(path.join(swapped, "inner")), "swapped/inner/new.txt", "pwned"),
    ).rejects.toThrow(/Access denied: "swapped\/inner\/new.txt" was swapped for a place outside/);
  });

  it("reads racing with a file and a directory swapped for links never see outside", async () => {
    const client = await start();
    writeFileSync(path.join(outside, "data.txt"), SECRET);
    box.rebaseline();
    const file = path.join(root, "flip.txt");
    const dir = path.join(root, "flipdir");
    const parked = path.join(root, "parked");
    writeFileSync(file, "SAFE");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "data.txt"), "SAFE");
    let stop = false;
    let linked = false;
    const flipper = (async () => {
      while (!stop) {
        // The file is replaced by renames: the server's own renames may land at any moment.
        if (linked) {
          writeFileSync(`${file}.f`, "SAFE");
          renameSync(`${file}.f`, file);
          unlinkSync(dir);
          renameSync(parked, dir);
        } else {
          symlinkSync(path.join(outside, "secret.txt"), `${file}.l`);
          renameSync(`${file}.l`, file);
          renameSync(dir, parked);
          symlinkSync(outside, dir);
        }
        linked = !linked;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const outcomes = { safe: 0, refused: 0 };
    try {
      for (let round = 0; round < 150; round++) {
        const results = await Promise.all(
          [file, path.join(dir, "data.txt")].flatMap((p) => [
            client.callTool("read_file", { path: p }),
            client.callTool("get_file_info", { path: p }),
            client.callTool("read_file", { path: p, tail: 1 }),
          ]),
        );
        for (const result of results) {
          expect(result.text()).not.toContain(SECRET);
          expect(result.text()).not.toContain(outside);
          if (result.isError) outcomes.refused++;
          else outcomes.safe++;
        }
      }
    } finally {
      stop = true;
      await flipper;
    }
    expect(outcomes.safe + outcomes.refused).toBe(900);
  });

  it("writes racing with their file or directory swapped for links never land outside", async () => {
    const client = await start();
    const file = path.join(root, "flip.txt");
    const dir = path.join(root, "wdir");
    const parked = path.join(root, "parked");
    writeFileSync(file, "SAFE");
    mkdirSync(dir);
    let stop = false;
    let linked = false;
    const flipper = (async () => {
      while (!stop) {
        // The file is replaced by renames: the server's own renames may land at any moment.
        if (linked) {
          writeFileSync(`${file}.f`, "SAFE");
          renameSync(`${file}.f`, file);
          unlinkSync(dir);
          renameSync(parked, dir);
        } else {
          symlinkSync(path.join(outside, "secret.txt"), `${file}.l`);
          renameSync(`${file}.l`, file);
          renameSync(dir, parked);
          symlinkSync(outside, dir);
        }
        linked = !linked;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let succeeded = 0;
    try {
      for (let round = 0; round < 150; round++) {
        const results = await Promise.all([
          client.callTool("write_file", { path: path.join(dir, `out${round}.txt`), content: "data" }),
          client.callTool("write_file", { path: path.join(dir, "same.txt"), content: `round ${round}` }),
          client.callTool("move_file", {
            source: path.join(root, "hello.txt"),
            destination: path.join(dir, `moved${round}.txt`),
          }),
          client.callTool("write_file", { path: file, content: "overwritten" }),
          client.callTool("edit_file", { path: file, edits: [{ oldText: "SAFE", newText: "EDITED" }] }),
        ]);
        for (const result of results) {
          expect(result.text()).not.toContain(outside);
          if (!result.isError) succeeded++;
        }
        // A move that happened took hello.txt somewhere inside; put a new one for the next round.
        if (!readdirSync(root).includes("hello.txt")) writeFileSync(path.join(root, "hello.txt"), "hello");
      }
    } finally {
      stop = true;
      await flipper;
    }
    expect(succeeded).toBeGreaterThan(0); // the race was run, not just refused
    // afterEach: nothing appeared in, changed in or vanished from the outside directory.
  });
});

/** The runtimes of docs/extensions.md's blocks (see runtimes.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { type RunContext, type Runtime, SERVE } from "./runtime.js";

export const EXTENSION_RUNTIMES: Record<string, Runtime> = {
  "echo-extension.ts": {
    after: SERVE,
    async check(run) {
      // A client that speaks the extension, as its methods require.
      const client = await run.stdio({ extensions: [{ id: "example.com/echo", settings: {} }] });
      expect(client.serverExtension("example.com/echo")).toEqual({});
      expect(await client.request("echo/say", { text: "hi" })).toMatchObject({ said: "hi" });
    },
  },
  "jobs-server.ts": {
    setup: "__docs.jobsCode();",
    after: SERVE,
    async check(run) {
      const client = await run.stdio();
      const tools = await client.listTools();
      expect(tools.find((tool) => tool.name === "render")).toBeDefined();
    },
  },
  "jobs-client.ts": {
    uses: ["jobs-server.ts"],
    setup: 'await __docs.clients(await __docs.httpServerBlock("jobs-server.js"), { go: true });',
    after: [
      "const sameTask = (await again.result()).text();",
      "__docs.report({ result: result.text(), sameTask });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report, stdout } = await run.program();
      expect(stdout).toMatch(/^completed/m);
      expect(report).toEqual({ result: "rendered a", sameTask: "rendered a" });
    },
  },
  "skills-server.ts": {
    after: SERVE,
    async check(run) {
      const client = await run.stdio({ cwd: skillsFolder(run) });
      const uris = (await client.listResources()).map((resource) => resource.uri);
      expect(uris).toContain("skill://team/release-notes/SKILL.md");
    },
  },
  "skills-host.ts": {
    uses: ["skills-server.ts"],
    setup: 'await __docs.stdioClient("skills-server.js", process.env.SKILLS_CWD);',
    after: [
      "__docs.report({ uris: entries.map((entry) => entry.uri), rejected, style });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program({ env: { SKILLS_CWD: skillsFolder(run) } });
      expect(report).toEqual({ uris: ["skill://team/release-notes/SKILL.md"], rejected: [], style: STYLE });
    },
  },
  "weather-server.ts": {
    setup: "__docs.weatherCode();",
    after: SERVE,
    async check(run) {
      const client = await run.stdio();
      const { contents } = await client.readResource("ui://weather/forecast.html");
      expect(contents[0]).toMatchObject({ uri: "ui://weather/forecast.html" });
      expect((contents[0] as { text: string }).text).toContain("<title>Forecast</title>");
      expect((await client.callTool("forecast", { city: "Oslo" })).text()).toBe("Sunny in Oslo");
    },
  },
  "weather-host.ts": {
    uses: ["weather-server.ts"],
    setup: 'globalThis.url = await __docs.httpServerBlock("weather-server.js");',
    after: [
      "__docs.report({ tools: tools.map((tool) => tool.name), view: { uri: view.uri, html: view.html } });",
      "await client.close();",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program();
      expect(report).toMatchObject({
        tools: ["forecast"],
        view: { uri: "ui://weather/forecast.html", html: expect.stringContaining("<title>Forecast</title>") },
      });
    },
  },
};

const STYLE = "Short sentences. One change a line.\n";

/** A folder holding ./skills with one skill, release-notes, and its style guide. */
function skillsFolder(run: RunContext): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-docs-skills-"));
  const skill = join(dir, "skills", "release-notes");
  mkdirSync(join(skill, "references"), { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: release-notes\ndescription: Writes release notes in the team's style.\n---\nRead references/STYLE.md first.\n",
  );
  writeFileSync(join(skill, "references", "STYLE.md"), STYLE);
  run.defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

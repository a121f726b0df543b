// Skills (SEP-2640): a server publishes the skill folders of examples/skills/ (each a SKILL.md
// with YAML frontmatter, and its files); a host lists them without reading any file, loads one
// (its SKILL.md verified against the entry's digest, size and frontmatter) and reads a reference
// the skill points to, verified in turn.
// Usage: node build/examples/skills.js
import { fileURLToPath } from "node:url";
import { McpClient } from "mcpkit/client";
import {
  listSkills,
  readSkill,
  registerSkillResources,
  SkillCatalog,
  skills,
  skillsFromDirectory,
} from "mcpkit/extensions/skills";
import { McpServer } from "mcpkit/server";

const folder = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const catalog = new SkillCatalog(await skillsFromDirectory(folder, { prefix: "team" }));
const server = new McpServer({ name: "docs", version: "1.0.0" }, { extensions: [skills(catalog)] });
registerSkillResources(server, catalog);
const http = await server.serveHttp();

const host = await McpClient.connect({ url: http.url });
const { skills: listed } = await listSkills(host);
for (const entry of listed) {
  const files = entry.resources === "dynamic" ? "dynamic" : `${entry.resources.length} files`;
  console.log(`${entry.uri}: ${entry.frontmatter.description} (${files})`);
}
const skill = await readSkill(host, "release-notes");
console.log(
  `loaded ${skill.frontmatter.name}, license ${skill.frontmatter.license}; first step: ${skill.body.split("\n")[3]}`,
);
console.log(`references/STYLE.md: ${(await skill.readText("references/STYLE.md")).split("\n")[2]}`);
try {
  await skill.readFile("references/SECRET.md");
} catch (error) {
  console.log(`refused: ${(error as Error).message}`);
}
await host.close();
await http.close();

/** `inspect`, `tools`, `resources`, `prompts`: what the server is and offers. */
import type { Command } from "commander";
import type { McpClient } from "../../client/client.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Prompt } from "../../protocol/types/prompts.js";
import type { Resource, ResourceTemplate } from "../../protocol/types/resources.js";
import type { Tool } from "../../protocol/types/tools.js";
import { type CliContext, clientCommand, print, printJson } from "../shared/command.js";
import { Exit } from "../shared/errors.js";
import { fields, formatSize, indent, oneLine, SHORT_LIMITS, table, truncate } from "../shared/format.js";
import { peerText } from "../shared/peer-text.js";
import { signature } from "../shared/schema.js";
import type { Session } from "../shared/session.js";
import { note } from "../shared/status.js";
import { out } from "../shared/terminal.js";

const EVERYTHING = "-- npx -y @modelcontextprotocol/server-everything";

const heading = (line: string) => out("bold", line);

/** A name the server chose (a tool, a capability, a MIME type), inert. */
const name = (text: unknown) => peerText(text, "name");
/** URIs may be long, and are copied from here to `mcpkit read`: one line, not cut short. */
const uri = (text: unknown) => peerText(text, "message");

/** `tools (listChanged), logging`: declared capabilities and their flags. */
function capabilityList(capabilities: Record<string, unknown>): string {
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([capability, value]) => {
      const flags =
        typeof value === "object" && value !== null
          ? Object.entries(value)
              .filter(([, v]) => v !== undefined && v !== false)
              .map(([k]) => name(k))
          : [];
      return flags.length > 0 ? `${name(capability)} (${flags.join(", ")})` : name(capability);
    })
    .join(", ");
}

type Lists = {
  tools?: Tool[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplate[];
  prompts?: Prompt[];
};

/** Lists what the server declares; what it does not declare stays undefined. */
async function fetchLists(client: McpClient, signal: AbortSignal, which: (keyof Lists)[]): Promise<Lists> {
  const { capabilities } = client;
  const options = { signal };
  const lists: Lists = {};
  if (which.includes("tools") && capabilities.tools) lists.tools = await client.listTools(options);
  if (which.includes("resources") && capabilities.resources)
    lists.resources = await client.listResources(options);
  if (which.includes("resourceTemplates") && capabilities.resources) {
    // Some servers offer resources without templates and answer "method not found".
    lists.resourceTemplates = await client.listResourceTemplates(options).catch((error: unknown) => {
      if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
      throw error;
    });
  }
  if (which.includes("prompts") && capabilities.prompts) lists.prompts = await client.listPrompts(options);
  return lists;
}

function section(title: string, items: unknown[] | undefined, body: () => string): string {
  if (items === undefined) return `${out("bold", title)}: not offered`;
  if (items.length === 0) return `${out("bold", title)}: none`;
  return `${out("bold", `${title} (${items.length})`)}\n${body()}`;
}

/** The first line of the description (or the title), inert. */
function describe(item: { title?: string; description?: string }): string {
  const text = item.description ?? item.title;
  return text === undefined ? "" : oneLine(peerText(text, "text"));
}

function toolsTable(tools: Tool[], full: boolean): string {
  const rows = tools.map((t) => [name(t.name), peerText(signature(t.inputSchema), "message"), describe(t)]);
  return table(["NAME", "ARGUMENTS", "DESCRIPTION"], rows, { full, heading });
}

function resourcesTable(resources: Resource[], full: boolean): string {
  const rows = resources.map((r) => [
    uri(r.uri),
    name(r.name),
    name(r.mimeType ?? ""),
    [r.size === undefined ? "" : `(${formatSize(r.size)}) `, describe(r)].join(""),
  ]);
  return table(["URI", "NAME", "MIME", "DESCRIPTION"], rows, { full, whole: [0, 1], heading });
}

function templatesTable(templates: ResourceTemplate[], full: boolean): string {
  const rows = templates.map((t) => [uri(t.uriTemplate), name(t.name), name(t.mimeType ?? ""), describe(t)]);
  return table(["URI TEMPLATE", "NAME", "MIME", "DESCRIPTION"], rows, { full, whole: [0, 1], heading });
}

function promptsTable(prompts: Prompt[], full: boolean): string {
  const rows = prompts.map((p) => [
    name(p.name),
    peerText((p.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`).join(", "), "message"),
    describe(p),
  ]);
  return table(["NAME", "ARGUMENTS", "DESCRIPTION"], rows, { full, heading });
}

async function inspect({ client, signal, options }: Session): Promise<number> {
  const lists = await fetchLists(client, signal, ["tools", "resources", "resourceTemplates", "prompts"]);
  const { serverInfo, protocolVersion, capabilities, instructions } = client;
  if (options.json) {
    printJson({ protocolVersion, serverInfo, capabilities, instructions, ...lists });
    return Exit.Ok;
  }
  const full = options.full === true;
  const title =
    serverInfo.title && serverInfo.title !== serverInfo.name ? ` (${name(serverInfo.title)})` : "";
  const parts = [
    fields([
      ["Server", `${name(serverInfo.name)} ${name(serverInfo.version)}${title}`],
      ["Protocol", name(protocolVersion)],
      ["Capabilities", capabilityList(capabilities as Record<string, unknown>) || "none"],
    ]),
  ];
  if (instructions) {
    const text = truncate(peerText(instructions, "content"), SHORT_LIMITS, full);
    parts.push(`Instructions\n${indent(text)}`);
  }
  parts.push(section("Tools", lists.tools, () => toolsTable(lists.tools!, full)));
  parts.push(section("Resources", lists.resources, () => resourcesTable(lists.resources!, full)));
  if (lists.resourceTemplates?.length) {
    parts.push(
      section("Resource templates", lists.resourceTemplates, () =>
        templatesTable(lists.resourceTemplates!, full),
      ),
    );
  }
  parts.push(section("Prompts", lists.prompts, () => promptsTable(lists.prompts!, full)));
  print(parts.join("\n\n"));
  return Exit.Ok;
}

/** An empty list: say on stderr why (nothing offered, or nothing listed); stdout stays empty. */
function noneNote(offered: unknown, what: string): void {
  note(offered ? `mcpkit: the server lists no ${what}` : `mcpkit: the server does not offer ${what}`);
}

async function tools({ client, signal, options }: Session): Promise<number> {
  const { tools = [] } = await fetchLists(client, signal, ["tools"]);
  if (tools.length === 0) noneNote(client.capabilities.tools, "tools");
  if (options.json) printJson({ tools });
  else if (tools.length > 0) print(toolsTable(tools, options.full === true));
  return Exit.Ok;
}

async function resources({ client, signal, options }: Session): Promise<number> {
  const lists = await fetchLists(client, signal, ["resources", "resourceTemplates"]);
  const { resources = [], resourceTemplates = [] } = lists;
  if (resources.length + resourceTemplates.length === 0) noneNote(client.capabilities.resources, "resources");
  if (options.json) {
    printJson({ resources, resourceTemplates });
    return Exit.Ok;
  }
  const full = options.full === true;
  const parts: string[] = [];
  if (resources.length > 0) parts.push(resourcesTable(resources, full));
  if (resourceTemplates.length > 0)
    parts.push(`${out("bold", "Templates")}\n${templatesTable(resourceTemplates, full)}`);
  if (parts.length > 0) print(parts.join("\n\n"));
  return Exit.Ok;
}

async function prompts({ client, signal, options }: Session): Promise<number> {
  const { prompts = [] } = await fetchLists(client, signal, ["prompts"]);
  if (prompts.length === 0) noneNote(client.capabilities.prompts, "prompts");
  if (options.json) printJson({ prompts });
  else if (prompts.length > 0) print(promptsTable(prompts, options.full === true));
  return Exit.Ok;
}

export function registerListCommands(program: Command, context: CliContext): void {
  clientCommand(program, context, {
    name: "inspect",
    summary: "Show the server and all it offers",
    description:
      "Show the server: protocol revision, name and version, capabilities, instructions, and its tools, resources, templates and prompts",
    examples: [
      [`mcpkit inspect ${EVERYTHING}`, "start the reference server and show what it offers"],
      ["mcpkit inspect http://localhost:3000/mcp", "a server over HTTP"],
      ["mcpkit inspect --config mcp.json filesystem --json", "a server from a config file, as JSON"],
    ],
    run: inspect,
  });
  clientCommand(program, context, {
    name: "tools",
    summary: "List the tools",
    description: "List the server's tools with their arguments",
    details: "In ARGUMENTS, a name followed by ? is optional.",
    examples: [
      [`mcpkit tools ${EVERYTHING}`, "the reference server's tools"],
      ["mcpkit tools http://localhost:3000/mcp -H 'Authorization: Bearer TOKEN'", "with an HTTP header"],
      ["mcpkit tools --json -- node server.js | jq -r '.tools[].name'", "tool names, for a script"],
    ],
    run: tools,
  });
  clientCommand(program, context, {
    name: "resources",
    summary: "List the resources and templates",
    description: "List the server's resources, then its resource templates",
    examples: [
      [`mcpkit resources ${EVERYTHING}`, "resources, then templates"],
      ["mcpkit resources --json http://localhost:3000/mcp", "as JSON: { resources, resourceTemplates }"],
    ],
    run: resources,
  });
  clientCommand(program, context, {
    name: "prompts",
    summary: "List the prompts",
    description: "List the server's prompts with their arguments",
    details: "In ARGUMENTS, a name followed by ? is optional.",
    examples: [
      [`mcpkit prompts ${EVERYTHING}`, "the reference server's prompts"],
      ["mcpkit prompts --json --config mcp.json everything", "as JSON: { prompts }"],
    ],
    run: prompts,
  });
}

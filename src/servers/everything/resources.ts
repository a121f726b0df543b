import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { McpServer } from "../../server/server.js";
import { PNG_BYTES, PNG_DATA_URI } from "./media.js";

export const STATIC_TEXT_URI = "test://static-text";
export const STATIC_BINARY_URI = "test://static-binary";
export const WATCHED_URI = "test://watched-resource";
const TEMPLATE = "test://template/{id}/data";
const CATALOG_TEMPLATE = "test://catalog/{category}/{item}";

const STATIC_TEXT = "This is the content of the static text resource.";

/** Ids the `{id}` completer proposes; any id can be read. */
const TEMPLATE_IDS = ["1", "2", "3", "42", "123"];

/** The catalog behind the second template: items by category. */
const CATALOG: Record<string, string[]> = {
  fruits: ["apple", "apricot", "banana", "cherry"],
  vegetables: ["artichoke", "asparagus", "carrot"],
};

const startingWith = (values: readonly string[], prefix: string): string[] =>
  values.filter((value) => value.startsWith(prefix));

/** The content of `test://watched-resource`; each `touch()` makes a new version. */
export class WatchedResource {
  private version = 1;

  get text(): string {
    return `Watched resource content, version ${this.version}`;
  }

  /** Changes the content; returns the new version. */
  touch(): number {
    this.version += 1;
    return this.version;
  }
}

/** The fixed resources and the templates of the everything server. */
export function registerResources(server: McpServer, watched: WatchedResource): void {
  server
    .resource(
      STATIC_TEXT_URI,
      {
        name: "static-text",
        title: "Static Text Resource",
        description: "A static text resource for testing",
        mimeType: "text/plain",
        annotations: { audience: ["user", "assistant"], priority: 0.5 },
      },
      () => STATIC_TEXT,
    )
    .resource(
      STATIC_BINARY_URI,
      {
        name: "static-binary",
        title: "Static Binary Resource",
        description: "A static binary resource (a 1×1 PNG) for testing",
        mimeType: "image/png",
        size: PNG_BYTES.byteLength,
        icons: [{ src: PNG_DATA_URI, mimeType: "image/png", sizes: ["1x1"] }],
      },
      () => PNG_BYTES,
    )
    .resource(
      WATCHED_URI,
      {
        name: "watched-resource",
        title: "Watched Resource",
        description: "Changes when the test_update_watched_resource tool runs; subscribe to hear of it",
        mimeType: "text/plain",
      },
      () => watched.text,
    )
    .resourceTemplate(
      TEMPLATE,
      {
        name: "template",
        title: "Resource Template",
        description: "A resource template with parameter substitution",
        mimeType: "application/json",
      },
      (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
      { complete: { id: (value) => startingWith(TEMPLATE_IDS, value) } },
    )
    .resourceTemplate(
      CATALOG_TEMPLATE,
      {
        name: "catalog",
        title: "Catalog Item",
        description: "An item of a category; completing {item} uses the {category} already chosen",
        mimeType: "text/plain",
      },
      (uri, { category, item }) => {
        const items = CATALOG[String(category)];
        if (!items?.includes(String(item))) {
          throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
        }
        return `${String(item)} is one of the ${String(category)}`;
      },
      {
        complete: {
          category: (value) => startingWith(Object.keys(CATALOG), value),
          item: (value, { arguments: chosen }) => {
            const category = chosen.category;
            const items =
              category === undefined ? Object.values(CATALOG).flat().sort() : (CATALOG[category] ?? []);
            return startingWith(items, value);
          },
        },
      },
    );
}

/** Mirroring one upstream's resources and resource templates, each read forwarded to it. */
import type { McpClient } from "../client/client.js";
import type { CompleteReference } from "../protocol/types/completion.js";
import type { Resource, ResourceTemplate } from "../protocol/types/resources.js";
import { UriTemplate } from "../util/uri-template.js";
import { asCaller } from "./caller.js";
import { describeError, forwardCompletion, listOrNone, without } from "./forward.js";
import { apply, isCurrent, type Registered, type SyncContext } from "./mirror-sync.js";

/**
 * Registers the resources and templates `client` lists now, removing the ones gone or changed.
 * Templates complete their variables upstream when the upstream offers completions.
 */
export async function syncResources(
  mirror: SyncContext,
  registered: { resources: Map<string, Registered>; templates: Map<string, Registered> },
  server: string,
  client: McpClient,
): Promise<void> {
  if (!isCurrent(mirror, server, client)) return;
  let resources: Resource[] = [];
  let templates: ResourceTemplate[] = [];
  if (client.capabilities.resources) {
    try {
      [resources, templates] = await Promise.all([
        listOrNone(() => client.listResources()),
        listOrNone(() => client.listResourceTemplates()),
      ]);
    } catch (error) {
      mirror.warn(`${mirror.upstreams.label(server)}: could not list resources: ${describeError(error)}`);
      return;
    }
    if (!isCurrent(mirror, server, client)) return;
  }
  const completes = client.capabilities.completions !== undefined;
  // The server's live client when each request is forwarded: a reconnect replaces it.
  const upstream = () => mirror.upstreams.multi.client(server);
  apply(
    mirror,
    server,
    registered.resources,
    new Map(resources.map((resource) => [resource.uri, resource])),
    (resource) => JSON.stringify(resource),
    (uri, resource) => {
      mirror.target.resource(uri, without(resource, "uri"), (_uri, ctx) =>
        asCaller(ctx, () => upstream().readResource(uri, { signal: ctx.signal })),
      );
    },
    (uri) => mirror.target.removeResource(uri),
    "resource",
  );
  apply(
    mirror,
    server,
    registered.templates,
    new Map(templates.map((template) => [template.uriTemplate, template])),
    (template) => JSON.stringify({ template, completes }),
    (uriTemplate, template) => {
      const variables = new UriTemplate(uriTemplate).variableNames;
      const ref: CompleteReference = { type: "ref/resource", uri: uriTemplate };
      mirror.target.resourceTemplate(
        uriTemplate,
        without(template, "uriTemplate"),
        (uri, _variables, ctx) => asCaller(ctx, () => upstream().readResource(uri, { signal: ctx.signal })),
        completes
          ? {
              complete: Object.fromEntries(
                variables.map((name) => [name, forwardCompletion(upstream, ref, name)]),
              ),
            }
          : {},
      );
    },
    (uriTemplate) => mirror.target.removeResource(uriTemplate),
    "resource template",
  );
}

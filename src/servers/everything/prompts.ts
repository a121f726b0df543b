import { embeddedResource, image, text } from "../../protocol/features/content.js";
import type { PromptArgumentSpec } from "../../server/registries/prompts.js";
import type { McpServer } from "../../server/server.js";
import { PNG_BASE64, PNG_DATA_URI } from "./media.js";

/** Values the `arg1` completer proposes. */
const ARG1_VALUES = ["test", "testValue1", "testing", "value"];

const startingWith = (values: readonly string[], prefix: string): string[] =>
  values.filter((value) => value.startsWith(prefix));

/** `test_prompt_with_arguments`: both required, both completed; arg2's completions follow arg1. */
const WITH_ARGUMENTS: Record<string, PromptArgumentSpec> = {
  arg1: {
    description: "First test argument",
    required: true,
    complete: (value) => startingWith(ARG1_VALUES, value),
  },
  arg2: {
    description: "Second test argument",
    required: true,
    complete: (value, { arguments: chosen }) => {
      const derived = chosen.arg1 === undefined ? [] : [`${chosen.arg1}-a`, `${chosen.arg1}-b`];
      return startingWith([...derived, "testValue2"], value);
    },
  },
};

/** The prompts of the everything server. */
export function registerPrompts(server: McpServer): void {
  server
    .prompt(
      "test_simple_prompt",
      {
        title: "Simple Prompt",
        description: "A simple prompt without arguments",
        icons: [{ src: PNG_DATA_URI, mimeType: "image/png", sizes: ["1x1"] }],
      },
      () => [{ role: "user", content: text("This is a simple prompt for testing.") }],
    )
    .prompt(
      "test_prompt_with_arguments",
      {
        title: "Prompt With Arguments",
        description: "A prompt with required arguments",
        arguments: WITH_ARGUMENTS,
      },
      ({ arg1, arg2 }) => [
        { role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) },
      ],
    )
    .prompt(
      "test_prompt_with_embedded_resource",
      {
        description: "A prompt that includes an embedded resource",
        arguments: { resourceUri: { description: "URI of the resource to embed", required: true } },
      },
      ({ resourceUri }) => [
        {
          role: "user",
          content: embeddedResource({
            uri: String(resourceUri),
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          }),
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ],
    )
    .prompt("test_prompt_with_image", { description: "A prompt that includes image content" }, () => [
      { role: "user", content: image(PNG_BASE64, "image/png") },
      { role: "user", content: text("Please analyze the image above.") },
    ]);
}

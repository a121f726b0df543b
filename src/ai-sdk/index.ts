export {
  type AiSdkToolsOptions,
  type ModelOutput,
  toAiSdkTool,
  toAiSdkTools,
  toModelOutput,
} from "./tools.js";

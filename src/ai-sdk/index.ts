export { type AiSdkToolsOptions, toAiSdkTool, toAiSdkTools, toModelOutput } from "./tools.js";

export {
  type LangChainToolArtifact,
  type LangChainToolsOptions,
  toLangChainTool,
  toLangChainTools,
} from "./tools.js";

/** Files offered as resources: the text kinds of the games' installs (definitions, scripts' source, configs). */
export const TEXT_EXTENSIONS_FOR_MCP = /\.(tdf|fbi|ota|gui|txt|cfg|ini|bos|h|lst|def|qc|shader)$/i;

/**
 * The MCP configuration an assistant needs to start `modpak mcp` on an install: the same JSON in the
 * README and in the studio's About box.
 */
export function mcpConfigSnippet(cli: string, root: string, allowWrite: readonly string[] = []): string {
  const args = [cli, 'mcp', root, ...allowWrite.flatMap((dir) => ['--allow-write', dir])];
  return JSON.stringify({ mcpServers: { modpak: { command: 'node', args } } }, null, 2);
}

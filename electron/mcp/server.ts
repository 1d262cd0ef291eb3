import { basename, resolve } from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallName, ResponseOf } from '../../shared/contract.js';
import type { GameId } from '../../shared/vfs-types.js';
import { TEXT_EXTENSIONS_FOR_MCP } from './text-files.js';
import { createStudioHost } from '../services/handlers/index.js';
import { PathAllowlist } from '../services/host/allowlist.js';
import type { StudioHost } from '../services/host/host.js';
import { tools, type ToolHost, type ToolResult } from './tools.js';
import { decodeTdf } from '../../shared/tdf/parse.js';

/**
 * `modpak mcp`: the studio's host behind the Model Context Protocol. The same composition root as
 * `modpak serve` and Electron builds the services and the call table; this shell only maps tools and
 * resources onto contract calls, and adds one guard the studio's pickers give a person: an assistant
 * reads only inside the install and the folders named by --allow-write, and writes only inside the latter.
 */
export interface McpOptions {
  root: string;
  game?: GameId;
  mod?: string;
  allowWrite: string[];
  version: string;
}

export interface ModpakMcp {
  server: McpServer;
  host: StudioHost;
  close(): Promise<void>;
}

export async function createMcpServer(options: McpOptions): Promise<ModpakMcp> {
  const root = resolve(options.root);
  const host = await createStudioHost({
    facts: { version: options.version, host: 'web', initialRoot: root, demo: false },
    recentFile: null,
    warm: false,
  });
  const readable = new PathAllowlist();
  const writable = new PathAllowlist();
  await readable.grant(root, 'folder');
  for (const dir of options.allowWrite) {
    await readable.grant(dir, 'folder');
    await writable.grant(dir, 'folder');
    await host.grant(dir, 'folder');
  }
  const mountOptions = { ...(options.game ? { game: options.game } : {}), ...(options.mod ? { mod: options.mod } : {}) };
  const toolHost: ToolHost = {
    root,
    async call<K extends CallName>(name: K, request: Record<string, unknown>): Promise<ResponseOf<K>> {
      const withMount = name === 'install.open' ? { ...mountOptions, ...request } : request;
      const answer = await host.call(name, withMount);
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.result as ResponseOf<K>;
    },
    checkReadable: (path) => readable.require(path, 'install or --allow-write folder'),
    checkWritable: (path) => writable.require(path, '--allow-write folder'),
  };
  // Every other call needs the install open in the host first, with the command line's game and mod.
  toolHost.game = (await toolHost.call('install.open', { root })).game;

  const server = new McpServer({ name: 'modpak', version: options.version });
  for (const tool of tools) {
    if (tool.writes && options.allowWrite.length === 0) continue;
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) =>
      toContent(await tool.run(toolHost, args)),
    );
  }

  const name = encodeURIComponent(basename(root));
  server.registerResource(
    'mount-order',
    `modpak://${name}/`,
    { description: 'The mount order of the install and its ignored archives', mimeType: 'application/json' },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await toolHost.call('install.open', { root }), null, 2) },
      ],
    }),
  );
  server.registerResource(
    'winning-file',
    new ResourceTemplate(`modpak://${name}/{+path}`, {
      list: async () => {
        const tree = await toolHost.call('install.tree', { root });
        const resources = tree.paths.filter((p) => TEXT_EXTENSIONS_FOR_MCP.test(p)).slice(0, 5000);
        return { resources: resources.map((p) => ({ uri: `modpak://${name}/${p}`, name: p, mimeType: 'text/plain' })) };
      },
    }),
    { description: 'A text file of the install as the game loads it (the winner)', mimeType: 'text/plain' },
    async (uri, variables) => {
      const path = decodeURIComponent(String(variables.path));
      const file = await toolHost.call('install.read', { root, path });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: decodeTdf(Buffer.from(file.data, 'base64')) }] };
    },
  );
  return {
    server,
    host,
    close: async () => {
      await server.close();
      await host.close();
    },
  };
}

function toContent(result: ToolResult) {
  if (result.image)
    return {
      content: [
        { type: 'image' as const, data: result.image.data, mimeType: result.image.mimeType },
        ...(result.text ? [{ type: 'text' as const, text: result.text }] : []),
      ],
    };
  if (result.text !== undefined) return { content: [{ type: 'text' as const, text: result.text }] };
  const json = result.json ?? null;
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(json, null, 2) }],
    ...(json && typeof json === 'object' && !Array.isArray(json) ? { structuredContent: json as Record<string, unknown> } : {}),
  };
}

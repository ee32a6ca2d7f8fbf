/** The client names `mcp-server --install` takes (./install.ts), for its help without loading it. */
export const CLIENT_NAMES = 'claude-desktop, claude-code, cursor, vscode, codex, gemini, windsurf';

/** Prompt and resource declarations (SPEC §7). */
export interface PromptDecl { name: string }
export interface ResourceDecl { name: string; uri: string }

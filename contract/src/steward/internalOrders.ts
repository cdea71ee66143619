export const internalOrderSchemas = {} as const;
export type InternalOrderOutputs = Record<never, never>;

/** External-link test (docs/product.md#validation): http, https, mailto and tel. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

/** Admin-name test (docs/product.md#validation): only admin or editor. */
export function validUsername(str: string): boolean {
  return ['admin', 'editor'].includes(str.trim());
}

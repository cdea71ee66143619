/** External-link test of spec 5: http, https, mailto and tel. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

/** Admin-name test of spec 5: only admin or editor. */
export function validUsername(str: string): boolean {
  return ['admin', 'editor'].includes(str.trim());
}

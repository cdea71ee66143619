import { CONTACT_FIELDS, maskContact, seesWholeContact, type ContactKind } from '@wuye/contract/team/contact';
import type { MethodDef, Session } from './registry.js';
import { JsonText } from './registry.js';

const KINDS = new Map(Object.entries(CONTACT_FIELDS) as Array<[string, ContactKind]>);

/** True when an answer of `def` to `session` must have owners' contact data masked (docs/product.md#contact-masking). */
export function masksContact(def: MethodDef, session: Session | null): boolean {
  return session !== null && def.spec.contact !== 'staff' && !seesWholeContact(session.roles);
}

/** A copy of an answer's data with every contact field masked; shared objects (caches) stay untouched. */
export function maskContactData(value: unknown, depth = 0): unknown {
  if (value instanceof JsonText) return new JsonText(maskContactJson(value.text));
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskContactData(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const kind = KINDS.get(k);
    out[k] = kind && typeof v === 'string' ? maskContact(kind, v) : maskContactData(v, depth + 1);
  }
  return out;
}

const CONTACT_JSON = new RegExp(`"(${[...KINDS.keys()].join('|')})":"((?:[^"\\\\]|\\\\.)*)"`, 'g');

/** The same on JSON text the database wrote (a tuned path's answer): its contact strings masked in place. */
export function maskContactJson(text: string): string {
  return text.replace(CONTACT_JSON, (_m, key: string, v: string) => `"${key}":"${maskContact(KINDS.get(key)!, v)}"`);
}

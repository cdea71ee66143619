/**
 * Every resource and workflow the contract describes is served: each method it names is
 * registered, with the description's roles (the one place a role list lives, docs/resources.md).
 */
import * as contract from '@wuye/contract';
import type { ResourceDef, WorkflowDef } from '@wuye/contract';
import { describe, expect, it } from 'vitest';
import { modules } from '../modules/index.js';

const registered = new Map(modules.flat().map((d) => [d.name as string, d]));
const values = Object.values(contract as Record<string, unknown>);
const isResource = (v: unknown): v is { def: ResourceDef } => typeof v === 'object' && v !== null && 'def' in v && 'formSchema' in v;
const isWorkflow = (v: unknown): v is { def: WorkflowDef } =>
  typeof v === 'object' && v !== null && 'def' in v && 'transitions' in (v as { def: object }).def;
const resources = values.filter(isResource);
const workflows = values.filter(isWorkflow);
const sameRoles = (a: unknown, b: unknown) =>
  typeof a === 'string' || typeof b === 'string' ? a === b : [...(a as string[])].sort().join() === [...(b as string[])].sort().join();

describe('contract descriptions and the server', () => {
  it('finds the described resources and workflows', () => {
    expect(resources.map((r) => r.def.name)).toEqual(
      expect.arrayContaining(['building', 'unit', 'roomcate', 'car', 'costtype', 'feeitem', 'dept', 'position']),
    );
    expect(workflows.map((w) => w.def.name)).toContain('refund');
  });

  it.each(resources.map((r) => [r.def.name, r] as const))('serves every method of resource %s with its roles', (_, r) => {
    for (const [kind, method] of Object.entries(r.def.methods)) {
      const def = registered.get(method);
      expect(def, `${method} is registered`).toBeDefined();
      // the property company's rows serve both sides; an export is a community's job either way
      const byGroup = r.def.owner === 'group';
      // (groupSide: the head office's own rows, on the group side alone)
      expect(def!.spec.side).toBe(byGroup && kind !== 'export' ? (r.def.groupSide ? 'group' : 'both') : 'community');
      // a group's dropdowns are the company's staff's, not merchants'
      const small = byGroup ? 'staff' : 'any';
      const roles = kind === 'add' || kind === 'edit' || kind === 'del' ? r.def.roles.write : kind === 'small' ? small : r.def.roles.read;
      // a dropdown may also be kept to the resource's readers (a replaced small list: the rosters'
      // shifts), or from merchants (the parking lots')
      const narrowed = kind === 'small' && (sameRoles(def!.spec.roles, r.def.roles.read) || def!.spec.roles === 'staff');
      expect(sameRoles(def!.spec.roles, roles) || narrowed, `${method} roles`).toBe(true);
    }
  });

  it.each(workflows.map((w) => [w.def.name, w] as const))('serves every transition of workflow %s', (_, w) => {
    for (const t of Object.values(w.def.transitions)) {
      const def = registered.get(t.method);
      expect(def, `${t.method} is registered`).toBeDefined();
      for (const role of t.roles === 'any' ? [] : t.roles) expect(def!.spec.roles).toContain(role);
    }
    if (w.def.logMethod) expect(registered.get(w.def.logMethod)).toBeDefined();
  });
});

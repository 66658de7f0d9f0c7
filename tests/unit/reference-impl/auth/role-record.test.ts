import { describe, expect, it } from 'vitest';
import {
  membershipEntries,
  normaliseRoleFields,
  privilegeEntries,
  retargetPrivileges,
} from '../../../../reference-impl/auth/role-record.js';
import { QueryValue, Ref } from '../../../../reference-impl/values/value.js';

const users = new Ref('users', new Ref('collections'));
const predicate = new QueryValue('ref', { equals: [1, 1] });

describe('role records', () => {
  it('normalises a single membership and privilege object into arrays and keeps predicates as stored lambdas', () => {
    const { fields, failures } = normaliseRoleFields({
      name: 'r',
      membership: { resource: users, predicate },
      privileges: { resource: users, actions: { read: predicate, create: true } },
    });
    expect(failures).toEqual([]);
    const [member] = membershipEntries(fields);
    expect(member!.resource).toBe(users);
    expect(member!.predicate).toBeInstanceOf(QueryValue);
    const [privilege] = privilegeEntries(fields);
    expect(privilege!.actions.create).toBe(true);
    expect(privilege!.actions.read).toBeInstanceOf(QueryValue);
  });

  it.each([
    ['a string action', { read: 'yes' }, ['privileges', 0, 'actions', 'read']],
    ['an unknown action', { fly: true }, ['privileges', 0, 'actions', 'fly']],
  ])('refuses %s, naming the field', (_label, actions, field) => {
    const { failures } = normaliseRoleFields({ name: 'r', privileges: [{ resource: users, actions }] });
    expect(failures.map((f) => f.field)).toEqual([field]);
  });

  it('needs no privileges nor actions, and refs as resources', () => {
    expect(normaliseRoleFields({ name: 'r' }).failures).toEqual([]);
    const actionless = normaliseRoleFields({ name: 'r', privileges: [{ resource: users }] });
    expect(actionless.failures).toEqual([]);
    expect(privilegeEntries(actionless.fields)[0]!.actions).toEqual({});
    const { failures } = normaliseRoleFields({
      name: 'r',
      membership: [{ resource: 'users' }],
      privileges: [{ resource: 'users', actions: { read: true } }],
    });
    expect(failures.map((f) => f.field)).toEqual([
      ['membership', 0, 'resource'],
      ['privileges', 0, 'resource'],
    ]);
  });

  it.each([
    ['an index ref', new Ref('by_name', new Ref('indexes'))],
    ['a document ref', new Ref('1', users)],
    ['a role ref', new Ref('admin', new Ref('roles'))],
  ])('refuses a membership resource that is %s, and accepts a native collection', (_label, resource) => {
    const { failures } = normaliseRoleFields({
      name: 'r',
      membership: [{ resource }],
      privileges: [{ resource: users, actions: { read: true } }],
    });
    expect(failures.map((f) => [f.field, f.code])).toEqual([[['membership', 0, 'resource'], 'invalid type']]);
    expect(
      normaliseRoleFields({
        name: 'r',
        membership: [{ resource: new Ref('tokens') }],
        privileges: [{ resource: users, actions: { read: true } }],
      }).failures,
    ).toEqual([]);
  });

  it('reads nothing from malformed stored roles', () => {
    expect(membershipEntries({ membership: 'x' })).toEqual([]);
    expect(privilegeEntries({ privileges: [{ resource: users, actions: 'all' }] })[0]!.actions).toEqual({});
  });

  it('points privileges on a renamed resource at its new ref and leaves others alone', () => {
    const before = new Ref('old', new Ref('indexes'));
    const after = new Ref('new', new Ref('indexes'));
    const role = {
      name: 'r',
      privileges: [
        { resource: before, actions: { read: true } },
        { resource: users, actions: { read: true } },
      ],
    };
    const moved = retargetPrivileges(role, before, after)!;
    expect(privilegeEntries(moved).map((p) => p.resource)).toEqual([after, users]);
    expect(privilegeEntries(moved)[0]!.actions).toEqual({ read: true });
    expect(retargetPrivileges(role, new Ref('other', new Ref('indexes')), after)).toBeUndefined();
    expect(retargetPrivileges({ name: 'r' }, before, after)).toBeUndefined();
  });
});

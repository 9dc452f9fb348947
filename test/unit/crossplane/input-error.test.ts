import { describe, expect, it } from 'vitest';
import { SyncInputError } from '../../../src/crossplane/input-error.js';
import { UserError } from '../../../src/errors.js';

describe('SyncInputError', () => {
  it('is a UserError named SyncInputError that carries the object, field and hint', () => {
    const e = new SyncInputError('bad', {
      object: { kind: 'Xrd', name: 'x' },
      field: 'spec.group',
      hint: 'fix it',
    });
    expect(e).toBeInstanceOf(UserError);
    expect([e.name, e.message, e.object, e.field, e.hint]).toEqual([
      'SyncInputError',
      'bad',
      { kind: 'Xrd', name: 'x' },
      'spec.group',
      'fix it',
    ]);
  });

  it('has no hint, object or field unless given', () => {
    const e = new SyncInputError('bad');
    expect([e.hint, e.object, e.field]).toEqual([undefined, undefined, undefined]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { NOTICES_SHOWN, dismiss, notices, notify } from '../../src/core/app/notices';

afterEach(() => notices.set([]));

describe('notices', () => {
  it('a notice with the same key replaces the shown one, and the replaced one is told it went', () => {
    const gone: string[] = [];
    notify({ severity: 'info', title: 'Deleting the records', text: 'first', onDismiss: () => gone.push('first') });
    notify({ severity: 'info', title: 'Deleting the records', text: 'second' });
    expect(notices.get().map((n) => n.text)).toEqual(['second']);
    // An Undo notice's delete is sent when it goes: replaced, it must not be forgotten.
    expect(gone).toEqual(['first']);
  });

  it(`keeps at most ${NOTICES_SHOWN}, and a crowded-out notice is told it went`, () => {
    const gone: string[] = [];
    for (let i = 0; i <= NOTICES_SHOWN; i++) notify({ severity: 'success', text: `n${i}`, onDismiss: () => gone.push(`n${i}`) });
    expect(notices.get()).toHaveLength(NOTICES_SHOWN);
    expect(gone).toEqual(['n0']);
  });

  it('dismiss tells the notice once', () => {
    let told = 0;
    const id = notify({ severity: 'info', text: 'x', onDismiss: () => told++ });
    dismiss(id);
    dismiss(id);
    expect(told).toBe(1);
  });
});

// Live lists on the client: changes of an entity reload its open list at most once a second with a trailing
// reload, and an open edit form hears only of changes of its own record made after it opened.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { receiveEntityChanges, resetEntityChanges, useLiveList, useRecordChange } from '../../src/core/live/use-live-list';

const change = (entity: string, id?: number, by = 'b@x.io') => ({ entity, ids: id === undefined ? undefined : [id], by, at: '2026-01-02T10:11:12.000Z' });

function List({ entity, reload, missedOnly }: { entity: string; reload: () => void; missedOnly?: boolean }) {
  useLiveList(entity, reload, { missedOnly });
  return null;
}
function Form({ entity, id }: { entity: string; id: number }) {
  const c = useRecordChange(entity, id);
  return <div data-testid="notice">{c ? `changed by ${c.by}` : 'unchanged'}</div>;
}

describe('live lists on the client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetEntityChanges();
  });
  afterEach(() => vi.useRealTimers());

  it('reloads at once, then once more a second later for a burst, and never for another entity', () => {
    const reload = vi.fn();
    render(<List entity="platform" reload={reload} />);
    act(() => receiveEntityChanges([change('whitelabel', 1)]));
    expect(reload).not.toHaveBeenCalled();
    act(() => receiveEntityChanges([change('platform', 1)]));
    expect(reload).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) act(() => receiveEntityChanges([change('platform', i)]));
    expect(reload).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1000));
    expect(reload).toHaveBeenCalledTimes(2);
    act(() => vi.advanceTimersByTime(5000));
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('reloads a screen that follows its own live item only for the changes its socket missed', () => {
    const reload = vi.fn();
    render(<List entity="pipeline" reload={reload} missedOnly />);
    act(() => receiveEntityChanges([change('pipeline', 1)]));
    expect(reload).not.toHaveBeenCalled();
    act(() => receiveEntityChanges([{ ...change('pipeline', 2), missed: true }]));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('tells an open form of its record only about changes after it opened', () => {
    act(() => receiveEntityChanges([change('platform', 7, 'earlier@x.io')]));
    render(<Form entity="platform" id={7} />);
    expect(screen.getByTestId('notice').textContent).toBe('unchanged');
    act(() => receiveEntityChanges([change('platform', 8), change('whitelabel', 7), change('platform')]));
    expect(screen.getByTestId('notice').textContent).toBe('unchanged');
    act(() => receiveEntityChanges([change('platform', 7, 'b@x.io')]));
    expect(screen.getByTestId('notice').textContent).toBe('changed by b@x.io');
  });

  it('ignores malformed batches', () => {
    const reload = vi.fn();
    render(<List entity="platform" reload={reload} />);
    act(() => {
      receiveEntityChanges('nonsense');
      receiveEntityChanges([null, 5, { ids: [1] }]);
    });
    expect(reload).not.toHaveBeenCalled();
  });
});

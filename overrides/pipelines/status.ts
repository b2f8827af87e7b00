// How a GitLab status and a duration read on the statuses modal: the colours of SPEC 4's pipeline rows.
import { t } from '../../src/core/i18n/i18n';

type ChipColor = 'success' | 'warning' | 'info' | 'error' | 'default';

const COLORS: Record<string, ChipColor> = {
  success: 'success',
  pending: 'warning',
  running: 'warning',
  skipped: 'info',
  failed: 'error',
  canceled: 'error',
};

export const statusColor = (status: string): ChipColor => COLORS[status] ?? 'default';

/** durationText(83.4) === '1 min 23 s'; null (not run yet) === '—'. */
export function durationText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const whole = Math.round(seconds);
  if (whole < 60) return t('{s} s', { s: seconds < 10 ? seconds.toFixed(1) : whole });
  const minutes = Math.floor(whole / 60);
  return minutes < 60 ? t('{min} min {s} s', { min: minutes, s: whole % 60 }) : t('{h} h {min} min', { h: Math.floor(minutes / 60), min: minutes % 60 });
}

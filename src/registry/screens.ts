import type { ComponentType } from 'react';
import { installed as overrides } from './installed';
import type { ActionOverrideProps, FormOverrideProps, ScreenOverrideProps } from './override-types';
import { createRegistry } from './registry';

/** Whole-screen overrides (`screen.override`). */
export const screenOverrides = createRegistry<ComponentType<ScreenOverrideProps>>('screen override', {}, overrides.screens);
/** Whole-form overrides (`form.override`). */
export const formOverrides = createRegistry<ComponentType<FormOverrideProps>>('form override', {}, overrides.forms);
/** Toolbar pieces (`screen.toolbar[]`, toolbar `actions.*.ui.override`). */
export const toolbarOverrides = createRegistry<ComponentType<ActionOverrideProps>>('toolbar override', {}, overrides.toolbar);
/** Row action pieces (`screen.rowActions[]`, row `actions.*.ui.override`). */
export const rowActionOverrides = createRegistry<ComponentType<ActionOverrideProps>>('row action override', {}, overrides.rowActions);

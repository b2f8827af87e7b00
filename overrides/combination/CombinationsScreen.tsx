import { useMemo } from 'react';
import { usePanel } from '../../src/core/app/panel';
import { session } from '../../src/core/session/session';
import { useStore } from '../../src/core/store';
import { ListScreen } from '../../src/mui/ListScreen';
import type { ScreenOverrideProps } from '../../src/registry/override-types';
import { combinationsFor, useOfficeIp } from './office-ip';

/** The generic combinations list, with the tester's office-IP rules applied to its manifest (`screen.override`). */
export default function CombinationsScreen({ manifest }: ScreenOverrideProps) {
  const panel = usePanel();
  const role = useStore(session).user!.role;
  const { ip } = useOfficeIp(panel);
  const shown = useMemo(() => combinationsFor(manifest, role, ip), [manifest, role, ip]);
  return <ListScreen key={manifest.entity} manifest={shown} />;
}

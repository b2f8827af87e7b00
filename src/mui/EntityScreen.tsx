import type { Manifest } from '../../kernel/manifest/types';
import { usePanel } from '../core/app/panel';
import { useT } from '../core/i18n/i18n';
import { screenOverrides } from '../registry/screens';
import { ErrorBoundary } from './ErrorBoundary';
import { ListScreen } from './ListScreen';

/** A manifest's screen: its `screen.override` when it names one, else the generic list screen. */
export default function EntityScreen({ manifest }: { manifest: Manifest }) {
  const { manifests } = usePanel();
  const t = useT();
  return (
    <ErrorBoundary key={manifest.entity} what={t('The {title} screen', { title: manifest.title })} file={manifests.fileOf(manifest.entity)}>
      <Screen manifest={manifest} />
    </ErrorBoundary>
  );
}

function Screen({ manifest }: { manifest: Manifest }) {
  const { manifests } = usePanel();
  const name = manifest.screen?.override;
  if (name) {
    const Override = screenOverrides.get(name, { file: manifests.fileOf(manifest.entity), path: '/screen/override' });
    return <Override manifest={manifest} />;
  }
  return <ListScreen key={manifest.entity} manifest={manifest} />;
}

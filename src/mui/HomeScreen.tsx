import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, Navigate } from 'react-router';
import { HOME_BY_ROLE, menuFor, type MenuLink } from '../core/access/access';
import { usePanel } from '../core/app/panel';
import { session } from '../core/session/session';
import { useStore } from '../core/store';

/** `/` until the dashboard override exists: the screens of the role as cards; tester and customercare go home. */
export default function HomeScreen() {
  const panel = usePanel();
  const { user } = useStore(session);
  if (!user) return null;
  const home = HOME_BY_ROLE[user.role];
  if (home) return <Navigate to={home} replace />;
  const links: (MenuLink & { group?: string })[] = menuFor(panel.manifests.all, user.role).flatMap((e) =>
    e.kind === 'group' ? e.items.map((i) => ({ ...i, group: e.label })) : [e],
  );
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Welcome, {user.email}
      </Typography>
      <Grid container spacing={2}>
        {links.map((l) => (
          <Grid key={l.route} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <Card variant="outlined">
              <CardActionArea component={RouterLink} to={l.route}>
                <CardContent>
                  <Typography variant="overline" color="text.secondary">
                    {l.group ?? 'Screen'}
                  </Typography>
                  <Typography variant="h6">{l.label}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {l.route}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}

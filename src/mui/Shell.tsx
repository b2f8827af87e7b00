import ExpandMore from '@mui/icons-material/ExpandMore';
import Logout from '@mui/icons-material/Logout';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { version } from '../../package.json';
import { menuFor, type MenuGroup, type MenuLink } from '../core/access/access';
import { usePanel } from '../core/app/panel';
import { session } from '../core/session/session';
import { useStore } from '../core/store';
import { RouteFallback } from './App';
import { PANEL_NAME } from './theme';

const navButton = { color: 'inherit', px: 1, minWidth: 0, flexShrink: 0, whiteSpace: 'nowrap', opacity: 0.85, '& .MuiButton-endIcon': { ml: 0.25 }, '&.active': { opacity: 1, bgcolor: 'rgba(255,255,255,0.16)' } } as const;

function NavLinkButton({ link }: { link: MenuLink }) {
  const { pathname } = useLocation();
  return (
    <Button component={RouterLink} to={link.route} className={pathname === link.route ? 'active' : undefined} sx={navButton}>
      {link.label}
    </Button>
  );
}

function NavGroup({ group }: { group: MenuGroup }) {
  const { pathname } = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const active = group.items.some((i) => i.route === pathname);
  return (
    <>
      <Button
        sx={navButton}
        className={active ? 'active' : undefined}
        endIcon={<ExpandMore />}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {group.label}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {group.items.map((item) => (
          <MenuItem key={item.route} component={RouterLink} to={item.route} selected={item.route === pathname} onClick={() => setAnchor(null)}>
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** The app shell: "<panel name> <version>", the role's menu from the manifests, the user's e-mail and Logout. */
export default function Shell() {
  const panel = usePanel();
  const navigate = useNavigate();
  const { user } = useStore(session);
  const menu = user ? menuFor(panel.manifests.all, user.role) : [];
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" color="primary">
        <Toolbar sx={{ gap: 1, flexWrap: 'nowrap', minWidth: 0 }}>
          <Typography component={RouterLink} to="/" variant="h6" sx={{ color: 'inherit', textDecoration: 'none', mr: 1, fontSize: 18, fontWeight: 700, whiteSpace: 'nowrap' }}>
            {PANEL_NAME} {version}
          </Typography>
          {/* One line at any width: the menu scrolls sideways rather than pushing Logout onto a second row. */}
          <Box
            component="nav"
            aria-label="Main menu"
            sx={{ display: 'flex', gap: 0.25, flexWrap: 'nowrap', flexGrow: 1, minWidth: 0, overflowX: 'auto', scrollbarWidth: 'none' }}
          >
            {menu.map((entry) => (entry.kind === 'group' ? <NavGroup key={entry.label} group={entry} /> : <NavLinkButton key={entry.route} link={entry} />))}
          </Box>
          <Typography variant="body2" data-testid="user-email" noWrap title={user?.email} sx={{ opacity: 0.9, maxWidth: 220, flexShrink: 0 }}>
            {user?.email}
          </Typography>
          <Divider orientation="vertical" flexItem sx={{ borderColor: 'rgba(255,255,255,0.3)', mx: 1 }} />
          <Button
            color="inherit"
            startIcon={<Logout />}
            sx={{ flexShrink: 0 }}
            onClick={async () => {
              await panel.logout();
              navigate('/login', { replace: true });
            }}
          >
            Logout
          </Button>
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flexGrow: 1, p: { xs: 1.5, md: 3 }, maxWidth: 1600, width: '100%', mx: 'auto' }}>
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}

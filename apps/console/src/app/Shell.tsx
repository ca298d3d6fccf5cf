import { useMemo, useState } from 'react';
import { Avatar, Button, Dropdown, Layout, Menu, Space, Typography, theme } from 'antd';
import {
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { PERSONAL_SECURITY_PATH, userDisplayName } from '@kefu/protocol';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from './session';
import { useUi } from './ui';
import { buildMenu, matchRoute } from './menu';
import { LanguageSwitch } from './components/LanguageSwitch';
import { ThemeSwitch } from './components/ThemeSwitch';
import { AgentStateSwitch } from '../features/dialogue/components/AgentStateSwitch';
import { AgentRuntimeHost, DialogueMenuBadge } from '../features/dialogue/components/AgentRuntimeHost';
import { LeaveMsgEntry } from '../features/leavemsg/components/LeaveMsgEntry';
import { ShellProviders } from './ShellProviders';

const { Sider, Header, Content } = Layout;
const MENU_EXTRAS = { '/dialogue': <DialogueMenuBadge /> };

export default function Shell() {
  return (
    <ShellProviders>
      {/* The agent socket lives as long as the login, not the /dialogue page. */}
      <AgentRuntimeHost />
      <ShellLayout />
    </ShellProviders>
  );
}

function ShellLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const routes = useSession((s) => s.routes);
  const user = useSession((s) => s.info?.user);
  const logout = useSession((s) => s.logout);
  const language = useUi((s) => s.language);
  const [collapsed, setCollapsed] = useState(false);

  const items = useMemo(() => buildMenu(routes, t, language, MENU_EXTRAS), [routes, t, language]);
  const trail = matchRoute(routes, pathname);
  // The user's own security, also from the header (every stock role holds it).
  const canSecure = useMemo(
    () => routes.some((r) => r.children?.some((c) => c.fullPath === PERSONAL_SECURITY_PATH)),
    [routes],
  );
  const selected = trail.length ? trail[trail.length - 1].fullPath : pathname;
  const [openKeys, setOpenKeys] = useState<string[]>(() => (trail.length > 1 ? [trail[0].fullPath] : []));

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider
        collapsible
        collapsed={collapsed}
        trigger={null}
        width={220}
        theme="light"
        className="kefu-sider"
        // The column runs the full height of the page (no strip under it on long pages); its content
        // stays in view while the page scrolls.
        style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}
      >
        <div style={{ position: 'sticky', top: 0, height: '100vh', overflowY: 'auto', overflowX: 'hidden' }}>
          <div
            style={{
              height: 56,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              fontWeight: 600,
              fontSize: 16,
              color: token.colorPrimary,
              overflow: 'hidden',
              padding: '0 12px',
              textAlign: 'center',
              lineHeight: 1.2,
            }}
            title={t('app.title')}
          >
            {/* Longer (English) titles wrap onto a second line rather than being cut off. */}
            <span style={{ overflow: 'hidden', maxWidth: '100%', maxHeight: 40 }}>
              {collapsed ? 'K' : t('app.title')}
            </span>
          </div>
          <Menu
            data-testid="main-menu"
            mode="inline"
            items={items}
            selectedKeys={[selected]}
            openKeys={collapsed ? undefined : openKeys}
            onOpenChange={setOpenKeys}
            onClick={({ key }) => void navigate(key)}
            style={{ borderInlineEnd: 'none' }}
          />
        </div>
      </Sider>
      <Layout>
        <Header
          style={{
            background: token.colorBgContainer,
            padding: '0 16px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
            height: 56,
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          <Space>
            <Button
              type="text"
              aria-label={t('shell.collapse')}
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed((c) => !c)}
            />
            <Typography.Text strong data-testid="page-title">
              {trail.map((r) => t(r.title)).join(' / ')}
            </Typography.Text>
          </Space>
          <Space size="middle">
            <AgentStateSwitch />
            <LeaveMsgEntry />
            <LanguageSwitch />
            <ThemeSwitch />
            <Dropdown
              trigger={['click']}
              menu={{
                items: canSecure
                  ? [
                      {
                        key: PERSONAL_SECURITY_PATH,
                        icon: <SafetyOutlined />,
                        label: <span data-testid="user-menu-security">{t('menu.personaSecurity')}</span>,
                      },
                    ]
                  : [],
                onClick: ({ key }) => void navigate(key),
              }}
              disabled={!canSecure}
            >
              <Space data-testid="user-menu" style={{ cursor: canSecure ? 'pointer' : undefined }}>
                <Avatar size="small" style={{ background: token.colorPrimary }} icon={<UserOutlined />} />
                <span data-testid="user-name">{userDisplayName(user)}</span>
              </Space>
            </Dropdown>
            <Button type="text" data-testid="logout" icon={<LogoutOutlined />} onClick={() => void logout()}>
              {t('shell.logout')}
            </Button>
          </Space>
        </Header>
        <Content style={{ padding: 16 }}>
          <Outlet />
        </Content>
      </Layout>
    </Layout>
  );
}

import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  BarChartOutlined,
  ContactsOutlined,
  EyeOutlined,
  HistoryOutlined,
  MessageOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { PERMISSION_TREE, type PermissionNode } from '@kefu/protocol';
import type { PermittedRoute } from './permittedRoutes';

type MenuItem = Required<MenuProps>['items'][number];

const ICONS: Record<string, ReactNode> = {
  dialogue: <MessageOutlined />,
  tourist: <TeamOutlined />,
  monitor: <EyeOutlined />,
  history: <HistoryOutlined />,
  card: <ContactsOutlined />,
  dataAnalysis: <BarChartOutlined />,
  quality: <SafetyCertificateOutlined />,
  setup: <SettingOutlined />,
};

/** Second-level permission nodes (A09_A02 "Organisation"…) give the long setup menu its groups. */
const GROUPS = new Map<string, PermissionNode>();
for (const top of PERMISSION_TREE) for (const g of top.children ?? []) if (g.children) GROUPS.set(g.code, g);

const groupOf = (r: PermittedRoute): string | undefined => {
  const code = typeof r.code === 'string' ? r.code : r.code?.[0];
  return code?.split('_').slice(0, 2).join('_');
};

export function buildMenu(
  routes: readonly PermittedRoute[],
  t: (key: string) => string,
  lang: string,
  /** Shown after an entry's title, by full path (the 在线对话 unread badge). */
  extras: Readonly<Record<string, ReactNode>> = {},
): MenuItem[] {
  const label = (r: PermittedRoute) => {
    const title = <span data-testid={`menu-${r.fullPath}`}>{t(r.title)}</span>;
    const extra = extras[r.fullPath];
    return extra ? (
      <>
        {title}
        {extra}
      </>
    ) : (
      title
    );
  };
  return routes
    .filter((r) => !r.hidden)
    .map((r): MenuItem => {
      if (!r.children) return { key: r.fullPath, icon: ICONS[r.path], label: label(r) };
      const visible = r.children.filter((c) => !c.hidden);
      const byGroup = new Map<string, PermittedRoute[]>();
      for (const c of visible) {
        const g = groupOf(c) ?? '';
        byGroup.set(g, [...(byGroup.get(g) ?? []), c]);
      }
      const grouped = byGroup.size > 1 && [...byGroup.keys()].every((g) => GROUPS.has(g));
      const children: MenuItem[] = grouped
        ? [...byGroup.entries()].map(([g, items]): MenuItem => {
            const node = GROUPS.get(g) as PermissionNode;
            // A group of one (搜索引擎, 机器人统计) would only repeat its entry's name above it.
            if (items.length === 1) return { key: items[0].fullPath, label: label(items[0]) };
            return {
              type: 'group' as const,
              key: g,
              label: lang.startsWith('en') ? node.en : node.zh,
              children: items.map((c) => ({ key: c.fullPath, label: label(c) })),
            };
          })
        : visible.map((c) => ({ key: c.fullPath, label: label(c) }));
      return { key: r.fullPath, icon: ICONS[r.path], label: label(r), children };
    });
}

/** The deepest route whose path prefixes the location, for the selected menu key and page title. */
export function matchRoute(routes: readonly PermittedRoute[], pathname: string): PermittedRoute[] {
  for (const r of routes) {
    if (pathname === r.fullPath || pathname.startsWith(`${r.fullPath}/`)) {
      return [r, ...(r.children ? matchRoute(r.children, pathname) : [])];
    }
  }
  return [];
}

import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Empty, Spin, Tree } from 'antd';
import type { TreeDataNode } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PERMISSION_TREE, type PermissionNode } from '@kefu/protocol';
import { checkedLeaves, codesToSave, roleApi, type Role } from '../api';
import { notify } from '../../../lib/notify';
import { serverMsg } from '../../../lib/confirm';

const toTree = (nodes: readonly PermissionNode[], en: boolean): TreeDataNode[] =>
  nodes.map((n) => ({
    key: n.code,
    title: <span data-testid={`auth-node-${n.code}`}>{en ? n.en : n.zh}</span>,
    children: n.children ? toTree(n.children, en) : undefined,
  }));

/** The role's permission codes as a checkable tree of PERMISSION_TREE, saved with /api/role/auth/save. */
export function AuthTree({ role }: { role: Role | null }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const en = i18n.language.startsWith('en');
  const treeData = useMemo(() => toTree(PERMISSION_TREE, en), [en]);
  const auth = useQuery({
    queryKey: ['roleAuth', role?.id],
    queryFn: ({ signal }) => roleApi.auth(role?.id ?? '', signal),
    enabled: role !== null,
  });
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setChecked(checkedLeaves(auth.data ?? []));
  }, [auth.data]);

  if (!role) {
    return (
      <Card size="small" style={{ flex: 1 }}>
        <Empty description={t('role.selectHint')} />
      </Card>
    );
  }

  const save = async () => {
    setSaving(true);
    try {
      const msg = await roleApi.saveAuth(role.id, codesToSave(checked));
      notify.success(serverMsg(msg) ?? t('common.done'));
      void qc.invalidateQueries({ queryKey: ['roleAuth', role.id] });
    } catch {
      // toasted by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      size="small"
      style={{ flex: 1, minWidth: 0 }}
      title={`${role.name} · ${t('role.auth')}`}
      extra={
        <Button
          type="primary"
          size="small"
          loading={saving}
          data-testid="auth-save"
          onClick={() => void save()}
        >
          {t('role.saveAuth')}
        </Button>
      }
    >
      {auth.isLoading ? (
        <Spin />
      ) : (
        <Tree
          data-testid="auth-tree"
          checkable
          // Not selectable: clicking a node's title toggles its check box.
          selectable={false}
          defaultExpandAll
          treeData={treeData}
          checkedKeys={checked}
          onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
        />
      )}
    </Card>
  );
}

import { useMemo, useState } from 'react';
import { Button, Card, Empty, Space, Spin, Switch, Tooltip, Tree } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { buildOrganTree, type Organ, type TreeNode } from '../api';
import { SkillPolicy } from './SkillPolicy';

/** Left side of /setup/section: the department tree and its actions on the selected node. */
export function OrganPanel(props: {
  organs: readonly Organ[];
  loading: boolean;
  selected: Organ | null;
  onSelect: (o: Organ | null) => void;
  onCreate: () => void;
  onEdit: (o: Organ) => void;
  onDelete: (o: Organ) => void;
  onToggleSkill: (o: Organ, skill: boolean) => void;
}) {
  const { organs, loading, selected } = props;
  const { t } = useTranslation();
  const tree = useMemo(() => buildOrganTree(organs), [organs]);
  // Track what the user collapsed rather than what is open, so a department that just got its
  // first child shows it straight away.
  const [collapsed, setCollapsed] = useState<string[]>([]);
  const parents = useMemo(
    () => [...new Set(organs.map((o) => o.parentid).filter((p): p is string => !!p))],
    [organs],
  );
  const expandedKeys = parents.filter((p) => !collapsed.includes(p));
  return (
    <Card
      title={t('section.departments')}
      size="small"
      style={{ width: 320, flex: 'none' }}
      styles={{ body: { padding: 12 } }}
      extra={
        <Button
          type="primary"
          size="small"
          icon={<PlusOutlined />}
          data-testid="organ-create"
          onClick={props.onCreate}
        >
          {selected ? t('section.newChild') : t('section.newDept')}
        </Button>
      }
    >
      <Button
        type={selected ? 'text' : 'link'}
        block
        style={{ justifyContent: 'flex-start', marginBottom: 4 }}
        data-testid="organ-all"
        onClick={() => props.onSelect(null)}
      >
        {t('section.allUsers')}
      </Button>
      {loading ? (
        <Spin />
      ) : tree.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('section.empty')} />
      ) : (
        <Tree<TreeNode>
          data-testid="organ-tree"
          blockNode
          expandedKeys={expandedKeys}
          onExpand={(keys) => setCollapsed(parents.filter((p) => !keys.includes(p)))}
          treeData={tree}
          selectedKeys={selected ? [selected.id] : []}
          // Clicking the selected node keeps it selected; "all users" is the way back.
          onSelect={(_, info) => props.onSelect(info.node.organ)}
          titleRender={(n) => (
            <span data-testid={`organ-node-${n.organ.name}`}>
              {n.organ.name}
              {n.organ.usercount ? <span style={{ color: '#999' }}> ({n.organ.usercount})</span> : null}
            </span>
          )}
        />
      )}
      {selected && (
        <div style={{ borderTop: '1px solid #f0f0f0', marginTop: 12, paddingTop: 12 }}>
          <div style={{ fontWeight: 500, marginBottom: 8 }} data-testid="organ-selected">
            {selected.name}
          </div>
          <Space wrap>
            <Tooltip title={t('section.skillHint')}>
              <Space size={4}>
                <Switch
                  size="small"
                  checked={selected.skill}
                  data-testid="organ-skill-toggle"
                  onChange={(v) => props.onToggleSkill(selected, v)}
                />
                {t('section.skill')}
              </Space>
            </Tooltip>
            <Button
              size="small"
              icon={<EditOutlined />}
              data-testid="organ-edit"
              onClick={() => props.onEdit(selected)}
            >
              {t('common.edit')}
            </Button>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              data-testid="organ-delete"
              onClick={() => props.onDelete(selected)}
            >
              {t('common.delete')}
            </Button>
          </Space>
          {selected.skill && <SkillPolicy organid={selected.id} />}
        </div>
      )}
    </Card>
  );
}

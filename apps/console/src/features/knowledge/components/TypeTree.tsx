import { useMemo, useState } from 'react';
import { Button, Form, Input, Space, Tree, TreeSelect, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { KB_LIMITS, type KbTypeDto } from '@kefu/protocol';
import { kbApi } from '../api';
import { FormModal } from '../../../components/FormModal';
import { useConfirmAction } from '../../../lib/confirm';
import { rules } from '../../../lib/formRules';
import { treeData, type TreeNode } from '../../../lib/tree';

interface Fields {
  name: string;
  parentid?: string;
}
type Draft = { type: KbTypeDto | null; parentid?: string };

const ALL = '';

/** The type tree beside the list: pick a type (its subtypes included), add, rename / move, delete an empty one. */
export function TypeTree(props: {
  types: KbTypeDto[];
  selected: string;
  onSelect: (typeid: string) => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const confirm = useConfirmAction();
  const [draft, setDraft] = useState<Draft | null>(null);
  const current = props.types.find((x) => x.id === props.selected) ?? null;
  const nodes = useMemo(() => {
    const own = new Map(props.types.map((x) => [x.id, x.items]));
    // A type counts its subtypes' items too (selecting it lists them).
    const total = (n: TreeNode): number =>
      (own.get(n.key) ?? 0) + n.children.reduce((s, c) => s + total(c), 0);
    const label = (n: TreeNode): TreeNode & { title: string } => ({
      ...n,
      title: `${n.title} (${total(n)})`,
      children: n.children.map(label),
    });
    return [{ key: ALL, value: ALL, title: t('kb.allTypes'), children: treeData(props.types).map(label) }];
  }, [props.types, t]);

  return (
    <div data-testid="kb-types">
      <Space style={{ marginBottom: 8 }} wrap>
        <Typography.Text strong>{t('kb.types')}</Typography.Text>
        <Button
          size="small"
          icon={<PlusOutlined />}
          aria-label={current ? t('kb.typeChild') : t('kb.typeNew')}
          title={current ? t('kb.typeChild') : t('kb.typeNew')}
          onClick={() => setDraft({ type: null, parentid: current?.id })}
          data-testid="kb-type-new"
        />
        <Button
          size="small"
          icon={<EditOutlined />}
          disabled={!current}
          aria-label={t('kb.typeEdit')}
          onClick={() => current && setDraft({ type: current })}
          data-testid="kb-type-edit"
        />
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          disabled={!current}
          aria-label={t('common.delete')}
          onClick={() =>
            current &&
            confirm(
              t('kb.typeDeleteConfirm', { name: current.name }),
              () => kbApi.removeType(current.id),
              () => {
                props.onSelect(ALL);
                props.onChanged();
              },
            )
          }
          data-testid="kb-type-delete"
        />
      </Space>
      <Tree
        blockNode
        defaultExpandAll
        key={props.types.length /* expand newly loaded types */}
        treeData={nodes}
        selectedKeys={[props.selected]}
        onSelect={(keys) => props.onSelect(String(keys[0] ?? ALL))}
      />
      <FormModal<Fields>
        open={draft !== null}
        title={draft?.type ? t('kb.typeEdit') : t('kb.typeNew')}
        testId="kb-type-form"
        initialValues={
          draft?.type
            ? { name: draft.type.name, parentid: draft.type.parentid || undefined }
            : { parentid: draft?.parentid }
        }
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          const body = { name: v.name, parentid: v.parentid ?? '' };
          if (draft?.type) await kbApi.updateType({ id: draft.type.id, ...body });
          else await kbApi.saveType(body);
          setDraft(null);
          props.onChanged();
        }}
      >
        <Form.Item name="name" label={t('kb.typeName')} rules={[r.required]}>
          <Input maxLength={KB_LIMITS.typeName} data-testid="kb-type-form-name" />
        </Form.Item>
        <Form.Item name="parentid" label={t('kb.typeParent')}>
          <TreeSelect allowClear treeDefaultExpandAll treeData={treeData(props.types, draft?.type?.id)} />
        </Form.Item>
      </FormModal>
    </div>
  );
}

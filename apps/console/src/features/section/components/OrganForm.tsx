import { useMemo } from 'react';
import { Form, Input, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { buildOrganTree, organApi, type Organ } from '../api';
import { rules } from '../../../lib/formRules';
import { FormModal } from '../../../components/FormModal';

export type OrganDraft = { mode: 'create'; parentid: string | null } | { mode: 'edit'; organ: Organ };

interface Fields {
  name: string;
  parentid?: string | null;
  skill: boolean;
}

/** Create a child, rename, move to another parent, toggle skill group: one small form. */
export function OrganForm(props: {
  draft: OrganDraft | null;
  organs: readonly Organ[];
  onClose: () => void;
  onSaved: (o: Organ) => void;
}) {
  const { draft, organs, onClose, onSaved } = props;
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  // A department cannot move under itself or its descendants, so that subtree is not offered.
  const tree = useMemo(
    () => buildOrganTree(organs, draft?.mode === 'edit' ? draft.organ.id : undefined),
    [organs, draft],
  );

  const initial = useMemo<Partial<Fields> | undefined>(
    () =>
      !draft
        ? undefined
        : draft.mode === 'edit'
          ? { name: draft.organ.name, parentid: draft.organ.parentid ?? undefined, skill: draft.organ.skill }
          : { name: '', parentid: draft.parentid ?? undefined, skill: false },
    [draft],
  );

  const submit = async (v: Fields) => {
    const body = { name: v.name.trim(), parentid: v.parentid ?? null, skill: v.skill };
    onSaved(
      draft?.mode === 'edit'
        ? await organApi.update({ id: draft.organ.id, ...body })
        : await organApi.save(body),
    );
  };

  return (
    <FormModal<Fields>
      open={draft !== null}
      title={t(draft?.mode === 'edit' ? 'section.editDept' : 'section.newDept')}
      initialValues={initial}
      onCancel={onClose}
      onSubmit={submit}
      testId="organ-form"
    >
      <Form.Item name="name" label={t('section.name')} rules={[r.required]}>
        <Input data-testid="organ-name" maxLength={50} />
      </Form.Item>
      <Form.Item name="parentid" label={t('section.parent')}>
        <TreeSelect
          data-testid="organ-parent"
          allowClear
          treeDefaultExpandAll
          treeData={tree}
          placeholder={t('section.noParent')}
        />
      </Form.Item>
      <Form.Item
        name="skill"
        label={t('section.skill')}
        valuePropName="checked"
        extra={t('section.skillHint')}
      >
        <Switch data-testid="organ-skill" />
      </Form.Item>
    </FormModal>
  );
}

import { useEffect, useMemo } from 'react';
import { Form, Input, Modal, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { buildOrganTree, organApi, type Organ } from '../api';
import { rules } from '../../../lib/formRules';
import { applyFieldErrors } from '../../../lib/formErrors';

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
  const [form] = Form.useForm<Fields>();
  const r = rules(i18n.language);
  // A department cannot move under itself or its descendants, so that subtree is not offered.
  const tree = useMemo(
    () => buildOrganTree(organs, draft?.mode === 'edit' ? draft.organ.id : undefined),
    [organs, draft],
  );

  useEffect(() => {
    if (!draft) return;
    form.resetFields();
    form.setFieldsValue(
      draft.mode === 'edit'
        ? { name: draft.organ.name, parentid: draft.organ.parentid ?? undefined, skill: draft.organ.skill }
        : { name: '', parentid: draft.parentid ?? undefined, skill: false },
    );
  }, [draft, form]);

  const submit = async (v: Fields) => {
    const body = { name: v.name.trim(), parentid: v.parentid ?? null, skill: v.skill };
    try {
      const saved =
        draft?.mode === 'edit'
          ? await organApi.update({ id: draft.organ.id, ...body })
          : await organApi.save(body);
      onSaved(saved);
    } catch (e) {
      applyFieldErrors(form, e);
    }
  };

  return (
    <Modal
      open={draft !== null}
      title={t(draft?.mode === 'edit' ? 'section.editDept' : 'section.newDept')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'organ-submit' }}
      forceRender
    >
      <Form<Fields>
        form={form}
        layout="vertical"
        onFinish={submit}
        scrollToFirstError
        data-testid="organ-form"
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
      </Form>
    </Modal>
  );
}

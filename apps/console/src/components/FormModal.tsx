import { useEffect, type ReactNode } from 'react';
import { Form, Modal, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaving } from '../lib/saving';
import { showFieldErrors } from '../features/access/components/fieldErrors';

/**
 * A form in a dialog: filled with `initialValues` each time it opens, validated on OK (the first errored
 * field scrolls into view), submitted through `onSubmit`; the server's field errors (`fields` of the error
 * envelope, error keys) are shown on their fields and the dialog stays open. The caller closes it when
 * `onSubmit` resolves. `children` may be a function of the form (dependent fields).
 */
export function FormModal<V extends object>(props: {
  open: boolean;
  title: ReactNode;
  initialValues?: Partial<V>;
  onCancel: () => void;
  onSubmit: (values: V) => Promise<unknown>;
  children: ReactNode | ((form: FormInstance<V>) => ReactNode);
  width?: number;
  okText?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const { saving, run } = useSaving();
  const { open, initialValues } = props;
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initialValues) form.setFieldsValue(initialValues as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, initialValues, form]);
  const id = props.testId ?? 'form';
  const submit = (values: V) =>
    run(async () => {
      try {
        await props.onSubmit(values);
      } catch (e) {
        showFieldErrors(form, e);
        throw e;
      }
    });
  return (
    <Modal
      open={open}
      title={props.title}
      width={props.width}
      onCancel={props.onCancel}
      onOk={() => form.submit()}
      confirmLoading={saving}
      okText={props.okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': `${id}-submit` }}
      forceRender
      destroyOnHidden={false}
    >
      <Form<V>
        form={form}
        layout="vertical"
        scrollToFirstError
        onFinish={(v) => void submit(v)}
        data-testid={id}
      >
        {typeof props.children === 'function' ? props.children(form) : props.children}
      </Form>
    </Modal>
  );
}

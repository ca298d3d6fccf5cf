import type { ReactNode } from 'react';
import { Button, Form, Space, type FormInstance } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * The filters above a list: the screen's own fields (Form.Items) inline, then Search and Reset, then
 * `extra` (export, batch actions). Search hands the form's values to `onSearch`; Reset clears the fields
 * and searches with nothing.
 */
export function FilterBar<V extends object>(props: {
  form: FormInstance<V>;
  onSearch: (values: V) => void;
  children: ReactNode;
  extra?: ReactNode;
  initialValues?: Partial<V>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = props.testId ?? 'filter';
  return (
    <Form<V>
      form={props.form}
      layout="inline"
      initialValues={props.initialValues}
      style={{ marginBottom: 16, rowGap: 8 }}
      onFinish={props.onSearch}
      data-testid={id}
    >
      {props.children}
      <Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid={`${id}-search`}>
            {t('common.search')}
          </Button>
          <Button
            data-testid={`${id}-reset`}
            onClick={() => {
              props.form.resetFields();
              props.onSearch(props.form.getFieldsValue());
            }}
          >
            {t('common.reset')}
          </Button>
          {props.extra}
        </Space>
      </Form.Item>
    </Form>
  );
}

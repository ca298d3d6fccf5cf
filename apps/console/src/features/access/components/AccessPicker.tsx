import { useEffect, type ReactNode } from 'react';
import { Card, Empty, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto } from '@kefu/protocol';
import { accessApi } from '../api';

export const ACCESS_LIST_KEY = ['access', 'list'] as const;

/**
 * The access point a settings screen works on: `?appid=` in the URL (links from the website-access
 * list), else the first one. Renders the picker and, once chosen, the screen body.
 */
export function AccessScoped(props: {
  testid: string;
  title: string;
  extra?: (ap: AccessPointDto) => ReactNode;
  children: (ap: AccessPointDto) => ReactNode;
}) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: ACCESS_LIST_KEY, queryFn: ({ signal }) => accessApi.list(signal) });
  const points = list.data ?? [];
  const wanted = params.get('appid');
  const current = points.find((p) => p.id === wanted) ?? points[0];

  useEffect(() => {
    if (current && current.id !== wanted) setParams({ appid: current.id }, { replace: true });
  }, [current, wanted, setParams]);

  return (
    <Card
      data-testid={props.testid}
      loading={list.isLoading}
      title={
        <Space wrap>
          <span>{props.title}</span>
          {points.length > 0 && (
            <Space size={4}>
              <Typography.Text type="secondary">{t('access.pick')}</Typography.Text>
              <Select
                data-testid="access-picker"
                size="small"
                style={{ minWidth: 200 }}
                value={current?.id}
                options={points.map((p) => ({ value: p.id, label: p.name }))}
                onChange={(appid: string) => setParams({ appid })}
              />
            </Space>
          )}
        </Space>
      }
      extra={current && props.extra?.(current)}
    >
      {current ? (
        props.children(current)
      ) : (
        <Empty description={t('access.pickFirst')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
    </Card>
  );
}

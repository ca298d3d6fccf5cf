import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Tooltip } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LEAVEMSG_SIZE_REFRESH_MS, leavemsgApi } from '../api';
import { useCan } from '../../access/components/useCan';

const LeaveMsgDrawer = lazy(() => import('./LeaveMsgDrawer').then((m) => ({ default: m.LeaveMsgDrawer })));

/** Top-bar entry: the count from /api/leavemsg/size; opens the leave-message drawer. Needs A01. */
export function LeaveMsgEntry() {
  const { t } = useTranslation();
  const can = useCan();
  const allowed = can('A01');
  const [open, setOpen] = useState(false);
  const size = useQuery({
    queryKey: ['leavemsg', 'size'],
    queryFn: ({ signal }) => leavemsgApi.size(signal),
    enabled: allowed,
    refetchInterval: LEAVEMSG_SIZE_REFRESH_MS,
  });
  if (!allowed) return null;
  return (
    <>
      <Tooltip title={t('leavemsg.title')}>
        <Badge count={size.data ?? 0} size="small" overflowCount={99}>
          <Button
            type="text"
            icon={<MailOutlined />}
            data-testid="leavemsg-open"
            aria-label={t('leavemsg.title')}
            onClick={() => setOpen(true)}
          />
        </Badge>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <LeaveMsgDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

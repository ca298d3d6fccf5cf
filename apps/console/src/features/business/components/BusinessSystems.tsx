import { useState } from 'react';
import { Button, Input, Popover, Space, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BusinessLinkDto } from '@kefu/protocol';
import { businessApi, openBusiness } from '../api';
import { notify } from '../../../lib/notify';

/** One system: open it for this chat, link the visitor to a record, open the linked record or tickets. */
function SystemRow({ link, agentserviceid }: { link: BusinessLinkDto; agentserviceid: string }) {
  const { t } = useTranslation();
  const [crmid, setCrmid] = useState('');
  const [open, setOpen] = useState(false);
  const viewCrm = async () => {
    try {
      const r = await businessApi.viewCrm(link.id, agentserviceid);
      openBusiness(r.url, link.opentype);
    } catch {
      notify.error(t('biz.noLink'));
    }
  };
  const viewTicket = async () => {
    try {
      openBusiness((await businessApi.viewTicket(link.id, agentserviceid)).url, link.opentype);
    } catch {
      notify.error(t('biz.noLink'));
    }
  };
  return (
    <div data-testid={`biz-${link.name}`} style={{ marginBottom: 8 }}>
      <Button
        icon={<LinkOutlined />}
        size="small"
        onClick={() => openBusiness(link.url, link.opentype)}
        data-testid={`biz-open-${link.name}`}
      >
        {link.name}
      </Button>
      <Space size={0} style={{ marginLeft: 4 }}>
        <Popover
          open={open}
          onOpenChange={setOpen}
          trigger="click"
          content={
            <Space.Compact>
              <Input
                size="small"
                placeholder={t('biz.crmid')}
                value={crmid}
                onChange={(e) => setCrmid(e.target.value)}
                data-testid={`biz-crmid-${link.name}`}
              />
              <Button
                size="small"
                type="primary"
                disabled={!crmid.trim()}
                data-testid={`biz-link-${link.name}`}
                onClick={() =>
                  void businessApi.addCrm(link.id, agentserviceid, crmid.trim()).then(() => {
                    setOpen(false);
                    notify.success(t('common.done'));
                  })
                }
              >
                {t('common.ok')}
              </Button>
            </Space.Compact>
          }
        >
          <Button type="link" size="small">
            {t('biz.linkCrm')}
          </Button>
        </Popover>
        <Button type="link" size="small" onClick={() => void viewCrm()} data-testid={`biz-view-${link.name}`}>
          {t('biz.viewCrm')}
        </Button>
        <Button type="link" size="small" onClick={() => void viewTicket()}>
          {t('biz.viewTicket')}
        </Button>
      </Space>
    </div>
  );
}

/** The chat panel's business systems (nothing when the tenant has none enabled). */
export function BusinessSystems({ agentserviceid }: { agentserviceid: string }) {
  const { t } = useTranslation();
  const links = useQuery({
    queryKey: ['business-links', agentserviceid],
    queryFn: ({ signal }) => businessApi.links(agentserviceid, signal),
    staleTime: 60_000,
  });
  if (!links.data?.length) return null;
  return (
    <div data-testid="business-systems" style={{ marginTop: 16 }}>
      <Typography.Title level={5}>{t('biz.panelTitle')}</Typography.Title>
      {links.data.map((l) => (
        <SystemRow key={l.id} link={l} agentserviceid={agentserviceid} />
      ))}
    </div>
  );
}

import type { ReactNode } from 'react';
import { Divider, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatData } from '../api';
import { ContactCard } from '../../contacts/components/ContactCard';
import { ConversationTags } from '../../tags/components/ConversationTags';
import { ServiceSummary } from '../../tags/components/ServiceSummary';

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <>
    <Divider style={{ margin: '16px 0 12px' }} />
    <Typography.Title level={5} style={{ marginTop: 0 }}>
      {title}
    </Typography.Title>
    {children}
  </>
);

/** The visitor panel's record of the conversation: its contact, its tags and the service summary (GET /api/talk/data). */
export function ConversationRecord(props: {
  chatId: string;
  agentserviceid: string;
  data: ChatData | undefined;
}) {
  const { chatId, agentserviceid, data } = props;
  const { t } = useTranslation();
  const qc = useQueryClient();
  if (!data) return null;
  const reload = () => void qc.invalidateQueries({ queryKey: ['dialogue', 'data', chatId] });
  return (
    <div data-testid="conversation-record">
      <Section title={t('record.contact')}>
        <ContactCard
          key={agentserviceid}
          agentserviceid={agentserviceid}
          contact={data.contact ?? null}
          onChanged={reload}
        />
      </Section>
      <Section title={t('record.tags')}>
        <ConversationTags agentserviceid={agentserviceid} tagIds={data.tags ?? []} onChanged={reload} />
      </Section>
      <Section title={t('record.summary')}>
        <ServiceSummary agentserviceid={agentserviceid} summary={data.summary} onChanged={reload} />
      </Section>
    </div>
  );
}

import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { organApi, userApi, type Organ, type User } from '../api';
import { OrganPanel } from '../components/OrganPanel';
import { OrganForm, type OrganDraft } from '../components/OrganForm';
import { UserTable } from '../components/UserTable';
import { UserForm, type UserDraft } from '../components/UserForm';
import { firstPage, type PageState } from '../../../lib/table';
import { useConfirmAction } from '../../../lib/confirm';
import { notify } from '../../../lib/notify';
import { userDisplayName } from '@kefu/protocol';

/** /setup/section: departments on the left, the selected department's users on the right. */
export default function SectionScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const confirm = useConfirmAction();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [page, setPage] = useState<PageState>(firstPage);
  const [q, setQ] = useState('');
  const [organDraft, setOrganDraft] = useState<OrganDraft | null>(null);
  const [userDraft, setUserDraft] = useState<UserDraft | null>(null);

  const organs = useQuery({ queryKey: ['organs'], queryFn: ({ signal }) => organApi.list(signal) });
  const list = organs.data ?? [];
  const selected = list.find((o) => o.id === selectedId) ?? null;
  const users = useQuery({
    queryKey: ['users', selectedId, page, q],
    queryFn: ({ signal }) =>
      userApi.page({ ...page, organ: selectedId ?? undefined, q: q || undefined }, signal),
    placeholderData: keepPreviousData,
  });

  const refreshOrgans = () => qc.invalidateQueries({ queryKey: ['organs'] });
  const refreshUsers = () => {
    void qc.invalidateQueries({ queryKey: ['users'] });
    // User counts on the tree and skill-group options change with users.
    void refreshOrgans();
    void qc.invalidateQueries({ queryKey: ['skills'] });
  };

  const select = (o: Organ | null) => {
    setSelectedId(o?.id ?? null);
    setPage(firstPage);
  };

  const toggleSkill = async (o: Organ, skill: boolean) => {
    try {
      await organApi.update({ id: o.id, name: o.name, parentid: o.parentid, skill });
      notify.success(t('common.done'));
      void refreshOrgans();
      void qc.invalidateQueries({ queryKey: ['skills'] });
    } catch {
      // toasted by the request layer
    }
  };

  const deleteOrgan = (o: Organ) =>
    confirm(
      t('common.deleteConfirm', { name: o.name }),
      () => organApi.remove(o.id),
      () => {
        if (selectedId === o.id) select(null);
        void refreshOrgans();
      },
    );

  const deleteUser = (u: User) =>
    confirm(
      t('common.deleteConfirm', { name: userDisplayName(u) }),
      () => userApi.remove(u.id),
      refreshUsers,
    );

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }} data-testid="section-screen">
      <OrganPanel
        organs={list}
        loading={organs.isLoading}
        selected={selected}
        onSelect={select}
        onCreate={() => setOrganDraft({ mode: 'create', parentid: selectedId })}
        onEdit={(o) => setOrganDraft({ mode: 'edit', organ: o })}
        onDelete={deleteOrgan}
        onToggleSkill={(o, v) => void toggleSkill(o, v)}
      />
      <UserTable
        title={selected ? `${selected.name} · ${t('section.users')}` : t('section.allUsers')}
        data={users.data}
        loading={users.isFetching}
        page={page}
        onPage={setPage}
        onSearch={(v) => {
          setQ(v.trim());
          setPage(firstPage);
        }}
        onCreate={() => setUserDraft({ mode: 'create', organ: selectedId ?? undefined })}
        onEdit={(u) => setUserDraft({ mode: 'edit', user: u })}
        onDelete={deleteUser}
      />
      <OrganForm
        draft={organDraft}
        organs={list}
        onClose={() => setOrganDraft(null)}
        onSaved={(o) => {
          setOrganDraft(null);
          notify.success(t('common.done'));
          void refreshOrgans().then(() => setSelectedId(o.id));
          void qc.invalidateQueries({ queryKey: ['skills'] });
        }}
      />
      <UserForm
        draft={userDraft}
        organs={list}
        onClose={() => setUserDraft(null)}
        onSaved={() => {
          setUserDraft(null);
          notify.success(t('common.done'));
          refreshUsers();
        }}
      />
    </div>
  );
}

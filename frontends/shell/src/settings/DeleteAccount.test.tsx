import { AppError } from '@noted/api';
import { createI18n, registerMessages } from '@noted/ui';
import { TestShell, createTestShell } from '@noted/ui/testing';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shellMessages } from '../messages';
import { DeleteAccount } from './DeleteAccount';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const renderDeletion = async (remove: (confirm: string) => Promise<void>) => {
  const i18n = await createI18n('en');
  await registerMessages(i18n, shellMessages);
  const onDeleted = vi.fn();
  render(
    <TestShell shell={createTestShell(i18n)}>
      <DeleteAccount email="ada@example.com" remove={remove} onDeleted={onDeleted} />
    </TestShell>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Delete account…' }));
  const dialog = screen.getByRole('alertdialog', { name: 'Delete your account?' });
  const field = within(dialog).getByLabelText('Type your email, ada@example.com, to confirm');
  const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
  return { dialog, field, confirm, onDeleted };
};

describe('deleting the account', () => {
  it('needs the email typed before it deletes, then signs out', async () => {
    const remove = vi.fn(async () => undefined);
    const { field, confirm, onDeleted } = await renderDeletion(remove);
    expect((confirm as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(field, { target: { value: 'ada@example.co' } });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(confirm);
    expect(remove).not.toHaveBeenCalled();

    // As the server compares: case and spaces around it do not matter.
    fireEvent.change(field, { target: { value: ' Ada@Example.com ' } });
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(confirm);

    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(remove).toHaveBeenCalledWith('Ada@Example.com');
  });

  it('says so when the server refuses the email, and stays signed in', async () => {
    const remove = vi.fn(async () => {
      throw new AppError('CONFIRMATION_MISMATCH', 'confirm is not the account email');
    });
    const { field, confirm, onDeleted } = await renderDeletion(remove);
    fireEvent.change(field, { target: { value: 'ada@example.com' } });
    fireEvent.click(confirm);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That is not the email of this account.',
    );
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('closes without deleting on Keep my account', async () => {
    const remove = vi.fn(async () => undefined);
    const { dialog } = await renderDeletion(remove);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(remove).not.toHaveBeenCalled();
  });
});

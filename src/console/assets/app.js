// The console's only script: confirmations, the live inbox, the Health page's refresh, and the
// column names a phone shows beside each cell.
// Markup inserted here comes rendered and escaped by the gateway; none is built from text.
'use strict';

function fragment(markup) {
  const t = document.createElement('template');
  t.innerHTML = markup;
  return t.content.firstElementChild;
}

function confirmForms() {
  document.addEventListener('submit', (event) => {
    const question = event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  });
}

// Conversations come a page at a time, newest first: a new delivery belongs on the first page,
// which keeps its length (the one pushed off is on the next page).
function bumpConversation(list, data) {
  if (list.dataset.firstPage !== 'yes') return;
  const existing = [...list.children].find((li) => li.dataset.phone === data.phone);
  const item = existing || fragment(data.conversation);
  if (existing) {
    const count = existing.querySelector('.count');
    count.textContent = String(Number(count.textContent) + 1);
  }
  list.prepend(item);
  const full = Number(list.dataset.pageSize);
  if (!existing && full > 0 && list.children.length > full) list.lastElementChild.remove();
  document.getElementById('no-conversations')?.remove();
}

function showEntry(section, data) {
  const entries = document.getElementById('entries');
  const existing = document.getElementById(`entry-${data.id}`);
  if (existing) {
    existing.replaceWith(fragment(data.html));
    return;
  }
  if (data.kind !== 'delivered') return;
  if (!section.dataset.phone) {
    section.dataset.phone = data.phone;
    section.querySelector('h2').textContent = data.phone;
  }
  if (section.dataset.phone === data.phone) entries.append(fragment(data.html));
}

function liveInbox() {
  const section = document.getElementById('conversation');
  if (!section || !window.EventSource) return;
  const params = new URLSearchParams();
  if (section.dataset.query) params.set('q', section.dataset.query);
  const source = new EventSource(`/console/inbox/events?${params}`);
  source.addEventListener('open', () => (document.body.dataset.live = 'on'));
  source.addEventListener('entry', (event) => {
    const data = JSON.parse(event.data);
    if (data.kind === 'delivered') bumpConversation(document.getElementById('conversations'), data);
    showEntry(section, data);
  });
}

// On a phone each table row is a card of its cells (app.css); each cell is given its column's
// name, which the stylesheet shows before it there. Without the script the cards go unlabelled.
function labelCells() {
  for (const table of document.querySelectorAll('table')) {
    const names = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        if (names[i]) cell.dataset.label = names[i];
      });
    }
  }
}

function refreshHealth() {
  if (document.body.dataset.page === 'health') setTimeout(() => window.location.reload(), 10000);
}

document.addEventListener('DOMContentLoaded', () => {
  confirmForms();
  labelCells();
  liveInbox();
  refreshHealth();
});

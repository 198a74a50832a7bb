import type { BusinessContent, MediaRef } from '../domain/business-messages/content.js';
import type { TemplateParameter } from '../domain/business-messages/template-parameter.js';
import type { InboxView } from '../domain/views/views.js';
import { formatText } from './formatting.js';
import { html, type Html } from './html.js';
import { utc } from './layout.js';

/** One delivery as the handset shows it: the message, its segments or type, receipt and timing. */
export function renderEntry(e: InboxView): Html {
  const meta =
    e.kind === 'sms'
      ? html`${e.segments} ${e.segments === 1 ? 'segment' : 'segments'} ·
        ${encodingName(e.encoding)}`
      : html`${e.type}`;
  return html`<li class="entry ${e.kind}" id="entry-${e.id}" data-id="${e.id}">
    <div class="meta">from <b>${e.from}</b> · ${meta} · ${utc(e.deliveredAt)} UTC</div>
    <div class="body">
      ${e.kind === 'sms' ? html`<p class="sms">${e.body}</p>` : businessBody(e.body)}
    </div>
    <div class="receipt">${receiptLine(e)}</div>
  </li>`;
}

function encodingName(encoding: string): string {
  return encoding === 'gsm7' ? 'GSM-7' : encoding === 'ucs2' ? 'UCS-2' : encoding;
}

function receiptLine(e: InboxView): Html {
  // A failed receipt means the phone never had it: the simulator took it, the network refused.
  const failed = e.receiptResult !== undefined && e.receiptResult !== 'Success';
  const verb = failed ? 'handed to the network' : 'delivered';
  const delivered = html`${verb} ${since(e.acceptedAt, e.deliveredAt)} after acceptance`;
  if (e.receiptResult && e.receiptTime !== undefined) {
    const cls = e.receiptResult === 'Success' ? 'ok' : 'bad';
    return html`<span class="result ${cls}">${e.receiptResult}</span> · ${delivered} · receipt
      ${receiptDelay(e.acceptedAt, e.receiptTime)}`;
  }
  if (e.reportStatus === 'none')
    return html`<span class="result">no report will come</span> · ${delivered}`;
  return html`<span class="result pending">awaiting report</span> · ${delivered}`;
}

/**
 * Receipts carry their time in whole seconds, acceptance in milliseconds: compared to the second,
 * so a receipt within the second of acceptance is not shown as "0 ms after".
 */
export function receiptDelay(acceptedAtMs: number, receiptTimeS: number): string {
  const seconds = Math.max(0, receiptTimeS - Math.floor(acceptedAtMs / 1000));
  return seconds === 0 ? 'within the second of acceptance' : `${seconds} s after acceptance`;
}

function since(from: number, to: number): string {
  const ms = Math.max(0, to - from);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function businessBody(json: string): Html {
  let content: BusinessContent;
  try {
    // Stored by SendMessage after it validated the content.
    content = JSON.parse(json) as BusinessContent;
  } catch {
    return html`<p class="sms">${json}</p>`;
  }
  switch (content.type) {
    case 'text':
      return html`<p class="text">${formatText(content.text.body)}</p>`;
    case 'image':
      return mediaCard('image', content.image, content.image.caption);
    case 'video':
      return mediaCard('video', content.video, content.video.caption);
    case 'audio':
      return mediaCard('audio', content.audio);
    case 'sticker':
      return mediaCard('sticker', content.sticker);
    case 'document':
      return mediaCard(
        'document',
        content.document,
        content.document.caption,
        content.document.filename,
      );
    case 'location':
      return locationCard(content.location);
    case 'template':
      return templateCard(content.template);
  }
}

/** A card naming the media: the console never fetches it, so it works offline and leaks nothing. */
function mediaCard(kind: string, ref: MediaRef, caption?: string, filename?: string): Html {
  const source = ref.link
    ? html`<span class="link">${ref.link}</span>`
    : html`media id <code>${ref.id}</code>`;
  return html`<div class="card media ${kind}">
    <div class="kind">${kind}${filename ? html` · ${filename}` : ''}</div>
    <div>${source}</div>
    ${caption ? html`<p class="text">${formatText(caption)}</p>` : ''}
  </div>`;
}

function locationCard(l: {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}): Html {
  return html`<div class="card location">
    <div class="kind">location</div>
    ${l.name ? html`<div><b>${l.name}</b></div>` : ''}
    ${l.address ? html`<div>${l.address}</div>` : ''}
    <div class="coords">${l.latitude.toFixed(6)}, ${l.longitude.toFixed(6)}</div>
  </div>`;
}

function templateCard(t: Extract<BusinessContent, { type: 'template' }>['template']): Html {
  const parts = (t.components ?? []).map((c) => {
    const where = c.type === 'button' ? `button ${c.index} (${c.sub_type})` : c.type;
    const values = (c.parameters ?? []).map(
      (p, i) => html`<li>{{${i + 1}}} = ${parameterText(p)}</li>`,
    );
    return html`<div class="component">
      <div class="kind">${where}</div>
      <ol>
        ${values}
      </ol>
    </div>`;
  });
  return html`<div class="card template">
    <div class="kind">template <b>${t.name}</b> · ${t.language.code}</div>
    ${parts}
  </div>`;
}

function parameterText(p: TemplateParameter): Html {
  switch (p.type) {
    case 'text':
      return formatText(p.text);
    case 'payload':
      return html`payload <code>${p.payload}</code>`;
    case 'image':
      return mediaParameter('image', p.image);
    case 'video':
      return mediaParameter('video', p.video);
    case 'document':
      return mediaParameter('document', p.document);
  }
}

function mediaParameter(kind: string, ref: MediaRef): Html {
  return html`${kind} ${ref.link ?? ref.id ?? ''}`;
}

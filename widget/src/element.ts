/**
 * `<brigade-booking>`: the booking box a restaurant pastes into its own page (docs/widget.md). Plain
 * DOM in a shadow root, no framework, nothing loaded but the API's answers: the script is the whole
 * widget. One step shows at a time (search, times, details, confirmation; or, from a manage link,
 * the booking or the waitlist place); each step's heading takes the focus when the guest moves on,
 * and what happens (loading, errors, changes) is said in a live region.
 */
import { Api, ApiError, type Availability, type Booking, type Place, type Slot, type WaitlistEntry } from './api';
import { pickLanguage, type Texts } from './i18n';
import { styles } from './styles';
import { WIDGET_VERSION } from './version';

/**
 * The API base, by default: the script is served by the API (GET /widget/v1.js), so the base is the
 * folder above the script's own. Read while the script runs: `document.currentScript` is null later.
 */
const scriptSrc = (document.currentScript as HTMLScriptElement | null)?.src;

type Child = Node | string | false | null | undefined;
type Props = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

/** An element with attributes (`on…`: listeners) and children; false, null and undefined are left out. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value != null) el.setAttribute(name, String(value));
  }
  el.append(...children.filter((c): c is Node | string => c !== false && c != null && c !== ''));
  return el;
}

const DAY = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The calendar date an instant falls on in a time zone, YYYY-MM-DD. */
function dateIn(instant: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(instant)
    .map((p) => [p.type, p.value]);
  const { year, month, day } = Object.fromEntries(parts) as Record<string, string>;
  return `${year}-${month}-${day}`;
}

/** What a booking summary shows: the confirmation step and the manage view share it. */
interface Shown {
  code: string;
  status: string;
  date: string;
  time: string;
  party: number;
}

class BrigadeBooking extends HTMLElement {
  /** The script's full version; its path carries the major (docs/widget.md, "Versions"). */
  static readonly version = WIDGET_VERSION;

  private readonly root = this.attachShadow({ mode: 'open' });
  private readonly main = h('div');
  private readonly msg = h('div', { class: 'msg', role: 'status' });
  private t!: Texts;
  private locale = 'en';
  private api!: Api;
  private locationId = '';
  private place: Place | undefined;
  private party = 0;
  private date = '';
  /** The booking whose time the guest is changing, if they are. */
  private changing: Booking | undefined;
  private busy = false;
  /** The guest has done something here: steps take the focus from now on, not while the page loads. */
  private interacted = false;
  private started = false;

  private readonly onHash = () => {
    if (!this.hashCode()) return;
    this.interacted = true;
    void this.route();
  };

  connectedCallback(): void {
    window.addEventListener('hashchange', this.onHash);
    if (this.started) return;
    this.started = true;
    ({ locale: this.locale, t: this.t } = pickLanguage(this.lang || document.documentElement.lang));
    const api = this.getAttribute('api');
    const base = api
      ? new URL(api.endsWith('/') ? api : `${api}/`, location.href)
      : new URL('../', scriptSrc ?? location.href);
    this.api = new Api(base, this.getAttribute('key') ?? '');
    this.locationId = this.getAttribute('location') ?? '';
    const box = h('section', { class: 'box', 'aria-label': this.t.region }, this.main, this.msg);
    this.root.append(h('style', {}, styles), box);
    for (const type of ['click', 'submit', 'keydown']) this.root.addEventListener(type, () => (this.interacted = true));
    void this.route();
  }

  disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.onHash);
  }

  /** A manage link's code in the page's address: `#brigade-booking=<code>` or `#brigade-waitlist=<code>`. */
  private hashCode(): { kind: 'booking' | 'waitlist'; code: string } | undefined {
    const match = /^#brigade-(booking|waitlist)=([A-Za-z0-9]{8,32})$/.exec(location.hash);
    return match ? { kind: match[1] as 'booking' | 'waitlist', code: match[2]!.toUpperCase() } : undefined;
  }

  private manageUrl(kind: 'booking' | 'waitlist', code: string): string {
    return `${location.href.replace(/#.*$/, '')}#brigade-${kind}=${code}`;
  }

  private async route(): Promise<void> {
    const link = this.hashCode();
    if (link?.kind === 'booking') {
      this.placeholder(this.t.manageTitle);
      const booking = await this.run(() => this.api.booking(link.code), { 404: this.t.notFound });
      if (booking) this.showManage(booking);
    } else if (link?.kind === 'waitlist') {
      this.placeholder(this.t.waitlistManageTitle);
      const entry = await this.run(() => this.api.entry(link.code), { 404: this.t.notFound });
      if (entry) this.showEntry(entry);
    } else await this.start();
  }

  /** The first step: the location's settings, then the search form. */
  private async start(): Promise<void> {
    this.changing = undefined;
    this.placeholder(this.t.bookTitlePlain);
    if (!/^\d+$/.test(this.locationId) || !this.getAttribute('key')) return this.say(this.t.setup, true);
    const place = await this.run(() => this.api.place(this.locationId));
    if (!place) return;
    this.place = place;
    this.showSearch();
  }

  /** While the page loads: a heading for the box, above the live region that says "loading" or why not. */
  private placeholder(title: string): void {
    if (!this.main.firstChild) this.step(title);
  }

  // ---- what the steps share ----

  /** Shows a step: its heading (focused once the guest has started), its content, and a message if any. */
  private step(title: string, ...content: Child[]): void {
    const heading = h('h2', { tabindex: -1 }, title);
    this.main.replaceChildren(heading, ...content.filter((c): c is Node | string => !!c));
    this.say('');
    if (this.interacted) heading.focus();
  }

  /** Says something in the live region; errors in the error style. */
  private say(text: string, error = false, details: string[] = []): void {
    this.msg.className = error ? 'msg error' : 'msg';
    this.msg.replaceChildren(
      ...(text ? [text] : []),
      ...(details.length ? [h('ul', {}, ...details.map((d) => h('li', {}, d)))] : []),
    );
  }

  /**
   * Runs one call to the API, one at a time: says "loading" when it takes a moment, and on failure
   * says why in words (`words` overrides by HTTP status) and answers undefined.
   */
  private async run<T>(work: () => Promise<T>, words: Record<number, string> = {}): Promise<T | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    this.main.setAttribute('aria-busy', 'true');
    const slow = setTimeout(() => this.say(this.t.loading), 400);
    try {
      const out = await work();
      this.say('');
      return out;
    } catch (error) {
      this.fail(error, words);
      return undefined;
    } finally {
      clearTimeout(slow);
      this.busy = false;
      this.main.removeAttribute('aria-busy');
    }
  }

  private fail(error: unknown, words: Record<number, string> = {}): void {
    const t = this.t;
    if (!(error instanceof ApiError)) return this.say(t.failed, true);
    // 0: no answer the page may read, which is how the browser reports an origin the key does not
    // allow; 401 and 403 are a key or origin the API refused. The guest can do nothing about either.
    if (error.status === 0 || error.status === 401 || error.status === 403) return this.say(t.unreachable, true);
    if (error.status === 429) return this.say(t.tooMany, true);
    const known = words[error.status];
    if (known) return this.say(known, true);
    this.say(
      `${t.failed} ${error.message}`,
      true,
      error.details.filter((d) => d !== error.message),
    );
  }

  private fmtDate(date: string): string {
    return new Intl.DateTimeFormat(this.locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: date.slice(0, 4) === String(new Date().getFullYear()) ? undefined : 'numeric',
      timeZone: 'UTC',
    }).format(Date.parse(`${date}T12:00Z`));
  }

  /** An instant's time of day in the location's time zone (the API names the zone with each time). */
  private fmtTime(instant: string, timeZone: string): string {
    return this.timeFormat(timeZone).format(Date.parse(instant));
  }

  /** An instant's date and time in the location's time zone, without the weekday: when an offer runs out. */
  private fmtMoment(instant: string, timeZone: string): string {
    return new Intl.DateTimeFormat(this.locale, {
      day: 'numeric',
      month: 'long',
      ...this.clock(),
      timeZone,
    }).format(Date.parse(instant));
  }

  /** A wall time (HH:MM, already the location's) in the page's language. */
  private fmtWall(time: string): string {
    const [hours, minutes] = time.split(':').map(Number);
    return this.timeFormat('UTC').format(Date.UTC(2000, 0, 1, hours, minutes));
  }

  /** Hours and minutes, the hour in two digits on a 24-hour clock (06:19, not 6:19), plain on a 12-hour one. */
  private clock(): Intl.DateTimeFormatOptions {
    const h12 = new Intl.DateTimeFormat(this.locale, { hour: 'numeric' }).resolvedOptions().hour12;
    return { hour: h12 ? 'numeric' : '2-digit', minute: '2-digit' };
  }

  private timeFormat(timeZone: string): Intl.DateTimeFormat {
    return new Intl.DateTimeFormat(this.locale, { ...this.clock(), timeZone });
  }

  private summary(rows: [string, string][]): HTMLDListElement {
    return h('dl', {}, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
  }

  private button(label: string, onclick: () => void, alt = false, type: 'button' | 'submit' = 'button') {
    return h('button', { type, class: alt ? 'alt' : false, onclick: type === 'button' ? onclick : undefined }, label);
  }

  /** A labelled field; `extra` holds the input's own attributes (type, autocomplete, required, …). */
  private field(id: string, label: string, extra: Props = {}, tag: 'input' | 'textarea' = 'input') {
    const input = h(tag, { id, name: id, ...extra });
    return { input, nodes: [h('label', { for: id }, label), input] };
  }

  /** Name and email and/or phone, the fields a booking and a waitlist place both ask for. */
  private contactFields() {
    const t = this.t;
    const name = this.field('name', t.name, { required: true, autocomplete: 'name', maxlength: 200 });
    const described = { 'aria-describedby': 'contact-hint' };
    const email = this.field('email', t.email, { type: 'email', autocomplete: 'email', maxlength: 254, ...described });
    const phone = this.field('phone', t.phone, { type: 'tel', autocomplete: 'tel', maxlength: 40, ...described });
    const nodes = [
      ...name.nodes,
      h('p', { id: 'contact-hint', class: 'muted' }, t.contactHint),
      ...email.nodes,
      ...phone.nodes,
    ];
    let flagged = false;
    const mark = (missing: boolean) => {
      for (const input of [email.input, phone.input]) input.setAttribute('aria-invalid', String(missing));
    };
    // the complaint goes as soon as either field is filled in, not at the next send
    const typed = () => {
      if (!flagged || !(email.input.value.trim() || phone.input.value.trim())) return;
      flagged = false;
      mark(false);
      this.say('');
    };
    for (const input of [email.input, phone.input]) input.addEventListener('input', typed);
    /** The values, or undefined (and the guest told why) when neither email nor phone is given. */
    const read = () => {
      const guestEmail = email.input.value.trim();
      const guestPhone = phone.input.value.trim();
      flagged = !guestEmail && !guestPhone;
      mark(flagged);
      if (flagged) {
        this.say(t.needContact, true);
        email.input.focus();
        return undefined;
      }
      return {
        guestName: name.input.value.trim(),
        ...(guestEmail ? { guestEmail } : {}),
        ...(guestPhone ? { guestPhone } : {}),
      };
    };
    return { nodes, read };
  }

  private form(onsubmit: () => void, ...children: Child[]): HTMLFormElement {
    return h(
      'form',
      {
        onsubmit: (event: Event) => {
          event.preventDefault();
          onsubmit();
        },
      },
      ...children,
    );
  }

  // ---- booking ----

  private showSearch(): void {
    const t = this.t;
    const place = this.place!;
    const sizes = place.allowedPartySizes.length
      ? place.allowedPartySizes
      : Array.from({ length: place.maxPartySize - place.minPartySize + 1 }, (_, i) => place.minPartySize + i);
    if (!sizes.includes(this.party)) this.party = sizes.includes(2) ? 2 : sizes[0]!;
    const first = dateIn(Date.now() + place.minAdvanceHours * 3_600_000, place.timezone);
    const last = addDays(dateIn(Date.now(), place.timezone), place.maxAdvanceDays);
    if (!this.date || this.date < first || this.date > last) this.date = first;
    const party = h(
      'select',
      { id: 'party', name: 'party' },
      ...sizes.map((n) => h('option', { value: n, selected: n === this.party }, t.guests(n))),
    );
    const date = h('input', { id: 'date', name: 'date', type: 'date', required: true, min: first, max: last });
    date.value = this.date;
    this.step(
      this.changing ? t.changeTitle : t.bookTitle(place.name),
      this.form(
        () => {
          this.party = Number(party.value);
          this.date = date.value;
          void this.searchTimes();
        },
        h('label', { for: 'party' }, t.partySize),
        party,
        h('label', { for: 'date' }, t.date),
        date,
        h(
          'div',
          { class: 'row' },
          this.changing && this.button(t.back, () => this.showManage(this.changing!), true),
          this.button(t.showTimes, () => {}, false, 'submit'),
        ),
      ),
    );
  }

  private async searchTimes(message?: string): Promise<void> {
    const found = await this.run(() => this.api.availability(this.locationId, this.date, this.party));
    if (found) this.showTimes(found, message);
  }

  private showTimes(found: Availability, message?: string): void {
    const t = this.t;
    const buttons = found.slots.flatMap((slot) => {
      const time = this.fmtTime(slot.startsAt, found.timezone);
      if (slot.available)
        return [
          h(
            'li',
            {},
            this.button(time, () => void this.pick(slot)),
          ),
        ];
      if (!slot.waitlist || this.changing) return [];
      const full = h('button', { type: 'button', class: 'full' }, time, ' ', h('small', {}, t.full));
      full.addEventListener('click', () => this.showWaitlistJoin(slot, found.timezone));
      return [h('li', {}, full)];
    });
    const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone === found.timezone;
    this.step(
      t.timesTitle,
      h('p', {}, t.timesFor(t.guests(found.partySize), this.fmtDate(found.date))),
      !ownZone && h('p', { class: 'muted' }, t.timesIn(found.timezone)),
      buttons.length ? h('ul', { class: 'times' }, ...buttons) : h('p', {}, t.noTimes),
      h(
        'div',
        { class: 'row' },
        this.button(t.back, () => this.showSearch(), true),
      ),
    );
    if (message) this.say(message, true);
  }

  /** A free time: the details form, or, when changing a booking, the change itself. */
  private async pick(slot: Slot): Promise<void> {
    const booking = this.changing;
    if (!booking) return this.showDetails(slot);
    const changed = await this.run(
      () =>
        this.api.change(booking.confirmationCode, {
          bookingDate: this.date,
          startTime: slot.time,
          guestCount: this.party,
        }),
      { 409: this.t.taken },
    );
    if (changed) {
      this.changing = undefined;
      this.showManage(changed, this.t.changed);
    }
  }

  private showDetails(slot: Slot): void {
    const t = this.t;
    const contact = this.contactFields();
    const occasion = this.field('occasion', t.occasion, { maxlength: 100 });
    const requests = this.field('requests', t.requests, { maxlength: 1000 }, 'textarea');
    const time = this.fmtTime(slot.startsAt, this.place!.timezone);
    this.step(
      t.detailsTitle,
      h('p', {}, `${t.guests(this.party)}, ${this.fmtDate(this.date)} ${time}`),
      this.form(
        () => void this.book(slot, contact.read(), occasion.input.value.trim(), requests.input.value.trim()),
        ...contact.nodes,
        ...occasion.nodes,
        ...requests.nodes,
        h(
          'div',
          { class: 'row' },
          this.button(t.back, () => void this.searchTimes(), true),
          this.button(t.book, () => {}, false, 'submit'),
        ),
      ),
    );
  }

  private async book(
    slot: Slot,
    guest: Record<string, string> | undefined,
    occasion: string,
    specialRequests: string,
  ): Promise<void> {
    if (!guest) return;
    let taken = false;
    const booking = await this.run(() =>
      this.api
        .book({
          locationId: Number(this.locationId),
          bookingDate: this.date,
          startTime: slot.time,
          guestCount: this.party,
          ...guest,
          ...(occasion ? { occasion } : {}),
          ...(specialRequests ? { specialRequests } : {}),
        })
        .catch((error: unknown) => {
          taken = error instanceof ApiError && error.status === 409;
          throw error;
        }),
    );
    // taken meanwhile: the times as they are now, and why the guest is back there
    if (taken) return this.searchTimes(this.t.taken);
    if (booking) this.showBooked(this.shown(booking));
  }

  private shown(booking: Booking): Shown {
    return {
      code: booking.confirmationCode,
      status: booking.status,
      date: booking.bookingDate,
      time: this.fmtTime(booking.startsAt, booking.timezone),
      party: booking.guestCount,
    };
  }

  private showBooked(booking: Shown): void {
    const t = this.t;
    const pending = booking.status === 'pending';
    this.step(
      pending ? t.requestedTitle : t.bookedTitle,
      pending && h('p', {}, t.requestedText),
      this.summary([
        [t.when, `${this.fmtDate(booking.date)} ${booking.time}`],
        [t.party, t.guests(booking.party)],
      ]),
      h('p', { id: 'code-label' }, t.code),
      h('p', { class: 'code', 'aria-labelledby': 'code-label' }, booking.code),
      h('p', {}, h('a', { href: this.manageUrl('booking', booking.code) }, t.manageLink)),
      h('p', { class: 'muted' }, t.manageHint),
    );
  }

  // ---- managing a booking ----

  private showManage(booking: Booking, message?: string): void {
    const t = this.t;
    const open = booking.status === 'confirmed' || booking.status === 'pending';
    const shown = this.shown(booking);
    this.step(
      t.manageTitle,
      this.summary([
        [t.when, `${this.fmtDate(shown.date)} ${shown.time}`],
        [t.party, t.guests(shown.party)],
        [t.status, t.statuses[booking.status] ?? booking.status],
        [t.code, booking.confirmationCode],
      ]),
      h(
        'div',
        { class: 'row' },
        open && this.button(t.changeTime, () => void this.changeTime(booking)),
        open && this.button(t.cancel, () => this.showCancel(booking), true),
        !open && this.button(t.newBooking, () => void this.start(), true),
      ),
    );
    if (message) this.say(message);
  }

  private async changeTime(booking: Booking): Promise<void> {
    this.locationId = String(booking.locationId);
    const place =
      this.place?.locationId === booking.locationId
        ? this.place
        : await this.run(() => this.api.place(this.locationId));
    if (!place) return;
    this.place = place;
    this.changing = booking;
    this.party = booking.guestCount;
    this.date = booking.bookingDate;
    this.showSearch();
  }

  private showCancel(booking: Booking): void {
    const t = this.t;
    const shown = this.shown(booking);
    this.step(
      t.cancelTitle,
      this.summary([
        [t.when, `${this.fmtDate(shown.date)} ${shown.time}`],
        [t.party, t.guests(shown.party)],
      ]),
      h(
        'div',
        { class: 'row' },
        this.button(t.cancelConfirm, () => void this.cancel(booking)),
        this.button(t.keep, () => this.showManage(booking), true),
      ),
    );
  }

  private async cancel(booking: Booking): Promise<void> {
    const cancelled = await this.run(() => this.api.cancel(booking.confirmationCode));
    if (cancelled) this.showManage(cancelled, this.t.cancelled);
  }

  // ---- the waitlist ----

  private showWaitlistJoin(slot: Slot, timeZone: string): void {
    const t = this.t;
    const contact = this.contactFields();
    const time = this.fmtTime(slot.startsAt, timeZone);
    this.step(
      t.waitlistTitle,
      h('p', {}, t.waitlistText(time)),
      h('p', {}, `${t.guests(this.party)}, ${this.fmtDate(this.date)} ${time}`),
      this.form(
        () => void this.joinWaitlist(slot, contact.read()),
        ...contact.nodes,
        h(
          'div',
          { class: 'row' },
          this.button(t.back, () => void this.searchTimes(), true),
          this.button(t.joinWaitlist, () => {}, false, 'submit'),
        ),
      ),
    );
  }

  private async joinWaitlist(slot: Slot, guest: Record<string, string> | undefined): Promise<void> {
    if (!guest) return;
    const entry = await this.run(() =>
      this.api.joinWaitlist({
        locationId: Number(this.locationId),
        partySize: this.party,
        desiredDate: this.date,
        windowStart: slot.time,
        ...guest,
      }),
    );
    if (!entry) return;
    const t = this.t;
    this.step(
      t.waitlistJoinedTitle,
      this.summary([
        [t.wanted, `${this.fmtDate(entry.desiredDate)} ${this.fmtWall(entry.windowStart)}`],
        [t.party, t.guests(entry.partySize)],
      ]),
      h('p', { id: 'code-label' }, t.waitlistCode),
      h('p', { class: 'code', 'aria-labelledby': 'code-label' }, entry.code),
      h('p', {}, h('a', { href: this.manageUrl('waitlist', entry.code) }, t.waitlistManageLink)),
      h('p', { class: 'muted' }, t.waitlistManageHint),
    );
  }

  private showEntry(entry: WaitlistEntry, message?: string): void {
    const t = this.t;
    const offer = entry.status === 'offered' ? entry.offer : null;
    const open = entry.status === 'waiting' || entry.status === 'offered';
    this.step(
      t.waitlistManageTitle,
      this.summary([
        [t.wanted, `${this.fmtDate(entry.desiredDate)} ${this.fmtWall(entry.windowStart)}`],
        [t.party, t.guests(entry.partySize)],
        [t.status, t.waitlistStatuses[entry.status] ?? entry.status],
        [t.waitlistCode, entry.code],
      ]),
      offer &&
        h(
          'p',
          {},
          t.offerText(
            `${this.fmtDate(offer.bookingDate)} ${this.fmtTime(offer.startsAt, offer.timezone)}`,
            this.fmtMoment(offer.expiresAt, offer.timezone),
          ),
        ),
      entry.booking &&
        h('p', {}, h('a', { href: this.manageUrl('booking', entry.booking.confirmationCode) }, t.manageLink)),
      h(
        'div',
        { class: 'row' },
        offer && this.button(t.accept, () => void this.answer(entry, 'accept')),
        offer && this.button(t.decline, () => void this.answer(entry, 'decline'), true),
        open && this.button(t.leave, () => void this.answer(entry, 'leave'), true),
      ),
    );
    if (message) this.say(message);
  }

  private async answer(entry: WaitlistEntry, action: 'accept' | 'decline' | 'leave'): Promise<void> {
    const answered = await this.run(() => this.api.answerEntry(entry.code, action));
    if (!answered) return;
    const booking = answered.booking;
    if (action === 'accept' && booking)
      return this.showBooked({
        code: booking.confirmationCode,
        status: booking.status,
        date: booking.bookingDate,
        time: this.fmtWall(booking.startTime),
        party: booking.guestCount,
      });
    this.showEntry(answered, action === 'leave' ? this.t.left : action === 'decline' ? this.t.declined : undefined);
  }
}

if (!customElements.get('brigade-booking')) customElements.define('brigade-booking', BrigadeBooking);

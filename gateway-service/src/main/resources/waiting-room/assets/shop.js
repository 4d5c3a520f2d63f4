/*
 * The minimal shop: list seats, hold one, pay, follow the order until it is settled. Texts come from the page's
 * message bundle (W.t); a problem's own title and detail are the API's English, so the page says its own words.
 */
(function () {
  'use strict';
  var W = window.Waitroom;
  var event = W.eventId();
  var base = '/events/' + encodeURIComponent(event);
  var shop = base + '/shop';
  var hold = null;
  var paying = false;
  var price = new Intl.NumberFormat(W.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  document.getElementById('back').href = base;

  function say(text) {
    W.setText('message', text);
  }

  function problem(r, fallbackKey) {
    var type = r.body && typeof r.body.type === 'string' ? r.body.type : '';
    var expired = /\/account-token-invalid$/.test(type);
    if (r.status === 401 && (expired || /\/sign-in-required$/.test(type))) {
      var url = r.body.signInUrl ? W.safeUrl(r.body.signInUrl) : null;
      say(W.t(expired ? 'signIn.expired.detail' : 'signIn.required.detail') + (url ? '' : ' ' + W.t('signIn.noLink')));
      if (url) { document.getElementById('sign-in').href = url; }
      W.show('sign-in-box', !!url);
      document.getElementById('hold').disabled = true;
      return true;
    }
    if (r.status === 401 || r.status === 403) {
      say(W.t('shop.sessionNotValid'));
      document.getElementById('hold').disabled = true;
      return true;
    }
    say(W.t(fallbackKey));
    return false;
  }

  function loadSeats() {
    W.request('GET', shop + '/seats').then(function (r) {
      if (!r.ok) { problem(r, 'shop.seats.failed'); return; }
      /* booking says whether its payment simulator is on: then no payment here is real, and the page says so */
      W.show('simulated', !!(r.body && r.body.paymentsSimulated === true));
      var container = document.getElementById('seats');
      container.textContent = '';
      var seats = (r.body && r.body.seats) || [];
      if (seats.length === 0) {
        say(W.t('shop.seats.none'));
        return;
      }
      seats.forEach(function (seat, i) {
        var label = document.createElement('label');
        label.className = 'seat';
        var input = document.createElement('input');
        input.type = 'radio';
        input.name = 'seat';
        input.value = seat.seatId;
        input.id = 'seat-' + i;
        label.appendChild(input);
        label.appendChild(document.createTextNode(' ' + W.t('shop.seat', { seat: seat.seatId, category: seat.category,
          price: price.format(seat.priceCents / 100) })));
        container.appendChild(label);
      });
      document.getElementById('hold').disabled = false;
      say(W.t('shop.seats.available', { count: seats.length }));
    }, function () { say(W.t('shop.seats.connection')); });
  }

  document.getElementById('seat-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var chosen = document.querySelector('input[name="seat"]:checked');
    if (!chosen) { say(W.t('shop.pickFirst')); return; }
    W.request('POST', shop + '/holds', { seatIds: [chosen.value] }).then(function (r) {
      if (r.status === 409) { say(W.t('shop.taken')); loadSeats(); return; }
      if (!r.ok) { problem(r, 'shop.hold.failed'); return; }
      hold = r.body;
      W.setText('hold-text', W.t('shop.hold.text', { seats: hold.seatIds.join(', '), time: W.time(hold.expiresAt) }));
      W.show('hold-box', true);
      say(W.t('shop.hold.done'));
      document.getElementById('pay').focus();
    }, function () { say(W.t('shop.hold.connection')); });
  });

  document.getElementById('pay').addEventListener('click', function () {
    if (!hold || paying) { return; }
    paying = true;
    var key = 'order-' + hold.holdId;
    W.request('POST', shop + '/orders', { holdId: hold.holdId }, { 'Idempotency-Key': key }).then(function (r) {
      paying = false;
      if (!r.ok) { problem(r, 'shop.order.failed'); return; }
      W.show('order-box', true);
      follow(r.body.orderId, 0);
    }, function () { paying = false; say(W.t('shop.order.connection')); });
  });

  function follow(orderId, attempt) {
    W.request('GET', shop + '/orders/' + encodeURIComponent(orderId)).then(function (r) {
      if (!r.ok) { problem(r, 'shop.order.unreadable'); setTimeout(function () { follow(orderId, attempt + 1); }, W.jittered(3)); return; }
      var order = r.body;
      if (order.state === 'PAID') {
        W.setText('order-text', W.t('shop.order.paid', { order: order.orderId }));
        say(W.t('shop.order.paidSay'));
        W.show('hold-box', false);
      } else if (order.state === 'PAYMENT_FAILED' || order.state === 'VOIDED') {
        W.setText('order-text', W.t('shop.order.notThrough', { state: W.t('shop.order.state.' + order.state) }));
        say(W.t('shop.order.notThroughSay'));
      } else {
        W.setText('order-text', W.t('shop.order.inProgress', { order: order.orderId }));
        setTimeout(function () { follow(orderId, attempt + 1); }, W.jittered(Math.min(10, 1 + attempt)));
      }
    }, function () { setTimeout(function () { follow(orderId, attempt + 1); }, W.jittered(5)); });
  }

  document.getElementById('leave').addEventListener('click', function () {
    W.request('POST', base + '/shopping-session/leave', {}).then(function () {
      window.location.assign(base);
    }, function () { window.location.assign(base); });
  });

  function showSession(until) {
    if (until) { W.setText('session', W.t('shop.session.until', { time: W.time(until) })); }
  }

  /* A fresh token with a later expiry, never past the session's absolute limit (the coordinator decides). */
  document.getElementById('renew').addEventListener('click', function () {
    W.request('POST', base + '/shopping-session/renew', {}).then(function (r) {
      if (r.ok && r.body) {
        try { sessionStorage.setItem('waitroom.session.' + event, r.body.expiresAt); } catch (e) { /* optional */ }
        showSession(r.body.expiresAt);
        say(r.body.absoluteExpiresAt
          ? W.t('shop.session.renewedCapped', { time: W.time(r.body.expiresAt), limit: W.time(r.body.absoluteExpiresAt) })
          : W.t('shop.session.renewed', { time: W.time(r.body.expiresAt) }));
      } else {
        problem(r, 'shop.session.renewFailed');
      }
    }, function () { say(W.t('shop.session.renewConnection')); });
  });

  try {
    showSession(sessionStorage.getItem('waitroom.session.' + event));
  } catch (e) { /* storage is optional */ }
  loadSeats();
}());

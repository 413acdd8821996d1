"""A SqliteFrontier file read and written directly, as another program would (layout versions 2 and 3).

Rows are stored in batch records (see ``_SCHEMA`` in ``geofocus/frontier.py``): per record, the
priorities (float64) and states (uint8) in ``batches``; the fingerprints (text, with their lengths in
characters as int32), slot ids (int32, names in ``slots``) and the requests' lengths in bytes (int32) in
``batch_requests``; all arrays little-endian.  A record of layout 3 has its requests in the payload file
``<path>-requests-<meta.requests_file>``, each at its offset (``request_offsets``, int64); one of layout 2
has them concatenated in ``requests``.  Changes since the last compaction are in ``journal`` and
``request_log``; this module reads the records only.
"""

import sqlite3
from array import array
from pathlib import Path


def _ints(blob, code):
    values = array(code)
    values.frombytes(blob)
    return values.tolist()


def payload_path(path, db):
    """The payload file of a frontier file (None while no record refers to one)."""
    row = db.execute("SELECT value FROM meta WHERE name = 'requests_file'").fetchone()
    return None if row is None else Path(f"{path}-requests-{row[0]}")


def stored_rows(path):
    """fingerprint -> {"priority", "state", "slot", "request" (bytes or None)} as the batch records hold them."""
    db = sqlite3.connect(path)
    try:
        slots = dict(db.execute("SELECT id, name FROM slots"))
        payloads = payload_path(path, db)
        data = payloads.read_bytes() if payloads is not None and payloads.exists() else b""
        rows = {}
        for count, prios, states, text, fp_lengths, slot_ids, lengths, requests, offsets in db.execute(
                "SELECT b.count, b.priorities, b.states, r.fingerprints, r.fingerprint_lengths, r.slots, "
                "r.request_lengths, r.requests, r.request_offsets "
                "FROM batches b JOIN batch_requests r USING (first_id)"):
            fp_at = req_at = 0
            prios, slot_ids = _ints(prios, "d"), _ints(slot_ids, "i")
            fp_lengths, lengths = _ints(fp_lengths, "i"), _ints(lengths, "i")
            places = _ints(offsets, "q") if offsets is not None else None
            assert len(prios) == len(states) == len(fp_lengths) == len(lengths) == count
            for k in range(count):
                fp = text[fp_at:fp_at + fp_lengths[k]]
                fp_at += fp_lengths[k]
                if places is not None:
                    request = bytes(data[places[k]:places[k] + lengths[k]]) if lengths[k] else None
                else:
                    request = bytes(requests[req_at:req_at + lengths[k]]) if lengths[k] else None
                    req_at += lengths[k]
                rows[fp] = {"priority": prios[k], "state": states[k], "slot": slots[slot_ids[k]], "request": request}
        return rows
    finally:
        db.close()


def replace_stored_requests(path, replacements):
    """Overwrite the stored requests of some fingerprints with other bytes (what a foreign writer could do):
    appended to the payload file (layout 3) or written into the record (layout 2)."""
    db = sqlite3.connect(path)
    try:
        payloads = payload_path(path, db)
        records = db.execute("SELECT first_id, fingerprints, fingerprint_lengths, request_lengths, requests, "
                             "request_offsets FROM batch_requests").fetchall()
        for first_id, text, fp_lengths, lengths, requests, offsets in records:
            fp_at = req_at = 0
            new_lengths, parts = array("i"), []
            places = array("q", _ints(offsets, "q")) if offsets is not None else None
            for k, (fp_length, length) in enumerate(zip(_ints(fp_lengths, "i"), _ints(lengths, "i"), strict=True)):
                fp = text[fp_at:fp_at + fp_length]
                fp_at += fp_length
                if places is not None:
                    if fp in replacements:
                        with open(payloads, "ab") as out:
                            places[k] = out.tell()
                            out.write(replacements[fp])
                        length = len(replacements[fp])
                    new_lengths.append(length)
                    continue
                data = replacements.get(fp, bytes(requests[req_at:req_at + length]))
                req_at += length
                new_lengths.append(len(data))
                parts.append(data)
            if places is not None:  # no sum: the record is not checked against a crash at open
                db.execute("UPDATE batch_requests SET request_lengths = ?, request_offsets = ?, request_sum = NULL "
                           "WHERE first_id = ?", (new_lengths.tobytes(), places.tobytes(), first_id))
            else:
                db.execute("UPDATE batch_requests SET request_lengths = ?, requests = ? WHERE first_id = ?",
                           (new_lengths.tobytes(), b"".join(parts), first_id))
        db.commit()
    finally:
        db.close()

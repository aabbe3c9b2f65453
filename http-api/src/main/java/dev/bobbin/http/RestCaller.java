package dev.bobbin.http;

import dev.bobbin.config.security.Caller;

/** The authenticated caller of a REST request, with their groups, and the address it came from. */
record RestCaller(Caller who, String address) {
  String user() {
    return who.user();
  }
}

package dev.bobbin.http;

import dev.bobbin.auth.Authentication;
import dev.bobbin.auth.Identity;
import dev.bobbin.auth.RequestAuthenticator;
import dev.bobbin.auth.UserGroups;
import dev.bobbin.config.security.Caller;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The one authenticator in front of every user-facing route of the member: the caller is
 * established, and their groups looked up, before the route sees the request.
 */
final class UserAccess extends AllDirectives {
  private final Authentication<Identity> authentication;
  private final UserGroups groups;

  UserAccess(RequestAuthenticator<Identity> authenticator, UserGroups groups) {
    this.authentication = new Authentication<>(authenticator, "RM");
    this.groups = groups;
  }

  Route require(Function<RestCaller, Route> inner) {
    return authentication.require(who -> onSuccess(groups.groupsOf(who.principal()),
        g -> inner.apply(new RestCaller(new Caller(who.principal().user(), g), who.address()))));
  }
}

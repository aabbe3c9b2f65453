package dev.bobbin.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.app.ApplicationAccessType;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.policy.ApplicationPriorities;
import dev.bobbin.protocol.Resource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubmissionJsonTest {
  private static Submission parse(String json) {
    return SubmissionJson.parse(Bodies.tree(json), "alice");
  }

  @Test
  void readsYarnsSubmissionContext() {
    Submission s = parse("""
        {"application-id":"application_1_0001","application-name":"n","queue":"root.q","priority":3,
         "max-app-attempts":1,"application-type":"MAPREDUCE","resource":{"memory":2048,"vCores":2},
         "application-tags":{"tag":["A","b"]},
         "am-container-spec":{"commands":{"command":["one","two"]},
           "environment":{"entry":[{"key":"K","value":"V"}]}}}""");
    assertThat(s.appId()).isEqualTo("application_1_0001");
    assertThat(s.user()).isEqualTo("alice");
    assertThat(s.queue()).isEqualTo("root.q");
    assertThat(s.priority()).isEqualTo(3);
    assertThat(s.amResource()).isEqualTo(new Resource(2048, 2));
    assertThat(s.tags()).containsExactly("a", "b");
    assertThat(s.amLaunch().commands()).containsExactly("one", "two");
    assertThat(s.amLaunch().environment()).containsEntry("K", "V");
  }

  @Test
  void readsWhetherContainersAreKeptAcrossAttempts() {
    String base = "{\"application-id\":\"application_1_0001\",\"am-container-spec\":{\"commands\":{\"command\":\"x\"}}";
    assertThat(parse(base + "}").keepContainers()).isFalse();
    assertThat(parse(base + ",\"keep-containers-across-application-attempts\":true}").keepContainers()).isTrue();
    assertThat(parse(base + ",\"keep-containers-across-application-attempts\":\"true\"}").keepContainers()).isTrue();
    assertThatThrownBy(() -> parse(base + ",\"keep-containers-across-application-attempts\":1}"))
        .hasMessageContaining("keep-containers-across-application-attempts must be true or false");
  }

  @Test
  void acceptsJerseysSingleValueShapes() {
    Submission s = parse("""
        {"application-id":"application_1_0001","am-container-spec":{"commands":{"command":"only"},
           "environment":{"entry":{"key":"K","value":"V"}}},"application-tags":{"tag":"x"}}""");
    assertThat(s.amLaunch().commands()).containsExactly("only");
    assertThat(s.amLaunch().environment()).containsEntry("K", "V");
    assertThat(s.tags()).containsExactly("x");
  }

  @Test
  void readsTheApplicationsAcls() {
    Submission s = parse("""
        {"application-id":"application_1_0001","am-container-spec":{"commands":{"command":"x"},
           "application-acls":{"entry":[{"key":"VIEW_APP","value":"bob,carol eng"},{"key":"MODIFY_APP","value":" "}]}}}""");
    assertThat(s.acls()).containsExactlyInAnyOrderEntriesOf(Map.of(
        ApplicationAccessType.VIEW_APP, "bob,carol eng", ApplicationAccessType.MODIFY_APP, " "));
    assertThat(parse("{\"application-id\":\"application_1_0001\"}").acls()).isEmpty();
    assertThatThrownBy(() -> parse("""
        {"am-container-spec":{"application-acls":{"entry":{"key":"DELETE_APP","value":"bob"}}}}"""))
        .isInstanceOf(Rejection.class).hasMessageContaining("DELETE_APP").hasMessageContaining("VIEW_APP");
    assertThatThrownBy(() -> parse("""
        {"am-container-spec":{"application-acls":{"entry":{"key":"VIEW_APP","value":["bob"]}}}}"""))
        .isInstanceOf(Rejection.class).hasMessageContaining("must be a string");
  }

  @Test
  void wrongShapesAreBadRequestsThatSayWhat() {
    assertThatThrownBy(() -> parse("[1,2]")).isInstanceOf(Rejection.class).hasMessageContaining("JSON object");
    assertThatThrownBy(() -> parse("{\"application-id\":\"a\",\"priority\":\"high\"}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("priority");
    assertThatThrownBy(() -> parse("{\"am-container-spec\":{\"commands\":{\"command\":[1]}}}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("command");
    assertThatThrownBy(() -> parse("{\"unmanaged-AM\":\"maybe\"}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("unmanaged-AM");
    assertThatThrownBy(() -> Bodies.tree("{oops")).isInstanceOf(Rejection.class).hasMessageContaining("Malformed");
  }

  @Test
  void anUnmanagedAmIsCarriedAndAnOmittedFlagMeansTheRmLaunchesTheAm() {
    assertThat(parse("{\"unmanaged-AM\":true}").unmanagedAm()).isTrue();
    assertThat(parse("{\"unmanaged-AM\":\"true\"}").unmanagedAm()).isTrue();
    assertThat(parse("{}").unmanagedAm()).isFalse();
  }

  @Test
  void numbersMustBeWholeAndFitTheirFieldsType() {
    // 2^32 + 1 and 2^32 + 5, which a cast to int made 1 and 5.
    assertThatThrownBy(() -> parse("{\"resource\":{\"memory\":1024,\"vCores\":4294967297}}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("vCores").hasMessageContaining("4294967297");
    assertThatThrownBy(() -> parse("{\"priority\":4294967301}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("priority").hasMessageContaining("2147483647");
    assertThatThrownBy(() -> parse("{\"max-app-attempts\":\"4294967297\"}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("max-app-attempts");
    assertThatThrownBy(() -> parse("{\"resource\":{\"memory\":1.9}}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("memory must be a whole number, was 1.9");
    assertThatThrownBy(() -> parse("{\"resource\":{\"memory\":\"lots\"}}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("memory must be a number");
    assertThatThrownBy(() -> parse("{\"priority\":\"" + "9".repeat(100_000) + "\"}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("a string of 100000 characters");
    assertThatThrownBy(() -> parse("{\"priority\":true}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("priority must be a number");
    // Numbers in strings are read as Hadoop's JSON provider reads them.
    Submission s = parse("{\"resource\":{\"memory\":\"2048\",\"vCores\":2},\"priority\":\"3\"}");
    assertThat(s.amResource()).isEqualTo(new Resource(2048, 2));
    assertThat(s.priority()).isEqualTo(3);
  }

  @Test
  void objectsMustBeObjects() {
    assertThatThrownBy(() -> parse("{\"resource\":\"big\"}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("resource must be a JSON object");
    assertThatThrownBy(() -> parse("{\"am-container-spec\":[\"ls\"]}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("am-container-spec must be a JSON object");
    assertThatThrownBy(() -> parse("{\"am-container-spec\":{\"commands\":{\"cmd\":\"ls\"}}}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("am-container-spec.commands must be a list of command values");
    assertThatThrownBy(() -> parse("{\"am-container-spec\":{\"environment\":{\"entry\":{\"key\":\"K\","
        + "\"value\":{\"nested\":1}}}}}")).isInstanceOf(Rejection.class).hasMessageContaining("value must be a string");
    assertThatThrownBy(() -> parse("{\"application-tags\":{\"tag\":[{\"a\":1}]}}")).isInstanceOf(Rejection.class)
        .hasMessageContaining("application-tags");
  }

  @Test
  void aSubmissionWithoutPriorityAsksForNoneSoItsLeafsDefaultApplies() {
    assertThat(parse("{\"application-id\":\"application_1_0001\"}").priority())
        .isEqualTo(ApplicationPriorities.NONE_ASKED);
  }

  @Test
  void aPriorityUpdateIsAWholeNumberFromZero() {
    assertThat(SubmissionJson.priority(Bodies.tree("{\"priority\":8}"))).isEqualTo(8);
    assertThat(SubmissionJson.priority(Bodies.tree("{\"priority\":\"8\"}"))).isEqualTo(8);
    assertThatThrownBy(() -> SubmissionJson.priority(Bodies.tree("{}"))).isInstanceOf(Rejection.class)
        .hasMessageContaining("Target Priority cannot be null");
    assertThatThrownBy(() -> SubmissionJson.priority(Bodies.tree("{\"priority\":null}")))
        .isInstanceOf(Rejection.class).hasMessageContaining("Target Priority cannot be null");
    assertThatThrownBy(() -> SubmissionJson.priority(Bodies.tree("{\"priority\":\"high\"}")))
        .isInstanceOf(Rejection.class).hasMessage("priority must be a number, was 'high'");
    assertThatThrownBy(() -> SubmissionJson.priority(Bodies.tree("{\"priority\":1.5}")))
        .isInstanceOf(Rejection.class).hasMessage("priority must be a whole number, was 1.5");
    assertThatThrownBy(() -> SubmissionJson.priority(Bodies.tree("{\"priority\":-1}")))
        .isInstanceOf(Rejection.class).hasMessage("priority must be between 0 and 2147483647, was -1");
  }

  /** What Jersey's natural notation, the one Hadoop's RM and its clients configure, writes. */
  @Test
  void keepsEveryValueOfHadoopsNaturalNotation() {
    Submission s = parse("""
        {"application-id":"application_1_0001","priority":-1,"unmanaged-AM":false,"cancel-tokens-when-complete":true,
         "am-container-spec":{"local-resources":{},
           "environment":{"entry":{"key":"A","value":"1"},"entry":{"key":"B","value":"2"},"entry":{"key":"C","value":"3"}},
           "commands":[{"command":["echo a","echo b"]}],"service-data":{},"credentials":{"tokens":{},"secrets":{}},
           "application-acls":{"entry":{"key":"VIEW_APP","value":"u1"},"entry":{"key":"MODIFY_APP","value":"u2"}}},
         "resource":{"memory":512,"vCores":1,"resourceInformations":{}},"application-type":"",
         "application-tags":[{"tag":["t1","t2"]}],"app-node-label-expression":"",
         "am-container-node-label-expression":"","attempt-failures-validity-interval":-1,"reservation-id":""}""");
    assertThat(s.amLaunch().environment()).containsOnly(Map.entry("A", "1"), Map.entry("B", "2"), Map.entry("C", "3"));
    assertThat(s.amLaunch().commands()).containsExactly("echo a", "echo b");
    assertThat(s.tags()).containsExactly("t1", "t2");
    assertThat(s.acls()).containsEntry(ApplicationAccessType.VIEW_APP, "u1").containsEntry(ApplicationAccessType.MODIFY_APP, "u2");
  }

  /** Jersey's mapped notation (numbers as strings), Jettison's (rooted, empty maps as ""), and Jackson's plain maps. */
  @Test
  void readsTheOtherWritersShapes() {
    Submission mapped = parse("""
        {"application-id":"application_1_0001","priority":"-1","max-app-attempts":"0","unmanaged-AM":"false",
         "am-container-spec":{"local-resources":null,"environment":{"entry":[{"key":"A","value":"1"},{"key":"B","value":"2"}]},
           "commands":{"command":["x","y"]},"service-data":null,"credentials":{"tokens":null,"secrets":null}},
         "resource":{"memory":"512","vCores":"1","resourceInformations":null},"application-tags":{"tag":["t1","t2"]}}""");
    assertThat(mapped.amLaunch().environment()).containsOnlyKeys("A", "B");
    assertThat(mapped.amLaunch().commands()).containsExactly("x", "y");
    assertThat(mapped.amResource()).isEqualTo(new Resource(512, 1));
    Submission jettison = parse("""
        {"application-submission-context":{"application-id":"application_1_0001",
         "am-container-spec":{"local-resources":"","environment":{"entry":[{"key":"A","value":1}]},
           "commands":{"command":"x"},"service-data":"","credentials":{"tokens":"","secrets":""}},
         "resource":{"memory":512,"vCores":1,"resourceInformations":""}}}""");
    assertThat(jettison.appId()).isEqualTo("application_1_0001");
    assertThat(jettison.amLaunch().environment()).containsEntry("A", "1");
    Submission jackson = parse("""
        {"application-id":"application_1_0001","am-container-spec":{"environment":{"A":"1","B":"2"},
           "application-acls":{"VIEW_APP":"u1"},"commands":["x","y"],"local-resources":{}},
         "application-tags":["t1","t2"],"log-aggregation-context":null,
         "resource":{"memory":512,"vCores":1,"resourceInformations":{"resourceInformation":[
           {"name":"memory-mb","value":512,"units":"Mi"},{"name":"vcores","value":1,"units":""}]}}}""");
    assertThat(jackson.amLaunch().environment()).containsOnly(Map.entry("A", "1"), Map.entry("B", "2"));
    assertThat(jackson.acls()).containsEntry(ApplicationAccessType.VIEW_APP, "u1");
    assertThat(jackson.amLaunch().commands()).containsExactly("x", "y");
    assertThat(jackson.tags()).containsExactly("t1", "t2");
    assertThat(parse("{\"application-id\":\"application_1_0001\",\"am-container-spec\":{\"commands\":\"only\"}}")
        .amLaunch().commands()).containsExactly("only");
  }

  @Test
  void refusesWhatItWouldOtherwiseDropNamingTheField() {
    String base = "{\"application-id\":\"application_1_0001\",";
    assertRefused(base + "\"colour\":\"blue\"}", "Unknown field colour");
    assertRefused(base + "\"am-container-spec\":{\"command\":[\"x\"]}}", "Unknown field am-container-spec.command");
    assertRefused(base + "\"resource\":{\"memory\":1,\"gpus\":1}}", "Unknown field resource.gpus");
    assertRefused(base + "\"app-node-label-expression\":\"gpu\"}", "app-node-label-expression is not supported");
    assertRefused(base + "\"am-container-node-label-expression\":\"gpu\"}", "am-container-node-label-expression is not supported");
    assertRefused(base + "\"reservation-id\":\"reservation_1_0001\"}", "reservation-id is not supported");
    assertRefused(base + "\"log-aggregation-context\":{\"log-include-pattern\":\"*.log\"}}", "log-aggregation-context is not supported");
    assertRefused(base + "\"am-container-spec\":{\"service-data\":{\"entry\":{\"key\":\"s\",\"value\":1}}}}",
        "am-container-spec.service-data[s].value must be a base64 string");
    assertRefused(base + "\"am-container-spec\":{\"credentials\":{\"secrets\":{\"entry\":{\"key\":\"s\",\"value\":\"eA\"}}}}}",
        "am-container-spec.credentials is not supported");
    assertRefused(base + "\"resource\":{\"memory\":512,\"resourceInformations\":{\"resourceInformation\":[{\"name\":\"yarn.io/gpu\",\"value\":1}]}}}",
        "not 'yarn.io/gpu'");
    assertRefused(base + "\"am-container-spec\":{\"environment\":{\"entry\":[{\"key\":\"A\",\"value\":\"1\"},{\"key\":\"A\",\"value\":\"2\"}]}}}",
        "the variable A is given twice");
    assertRefused(base + "\"queue\":\"a\",\"queue\":\"b\"}", "queue is given more than once");
  }

  private static void assertRefused(String json, String message) {
    assertThatThrownBy(() -> parse(json)).isInstanceOf(Rejection.class).hasMessageContaining(message)
        .satisfies(e -> assertThat(((Rejection) e).status()).isEqualTo(400));
  }
}

package dev.waitroom.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ServiceCredentialTests {

    @ParameterizedTest
    @EnumSource(WaitroomService.class)
    void aGeneratedCredentialNamesItsServiceAndParsesBack(WaitroomService service) {
        ServiceCredential credential = ServiceCredential.generate(service);

        assertThat(credential.value()).startsWith("wrs_" + service.wireName() + "_");
        assertThat(credential.value()).hasSize(4 + service.wireName().length() + 1 + 43);
        assertThat(ServiceCredential.parse(credential.value())).contains(credential);
        assertThat(ServiceCredential.generate(service)).isNotEqualTo(credential);
        assertThat(credential.toString()).doesNotContain(credential.value().substring(10));
    }

    @Test
    void theHashIsTheLowercaseHexSha256OfTheWholeCredential() throws Exception {
        ServiceCredential credential = ServiceCredential.generate(WaitroomService.GATEWAY);
        String expected = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(credential.value().getBytes(StandardCharsets.UTF_8)));

        assertThat(credential.sha256Hex()).isEqualTo(expected).hasSize(64).matches("[0-9a-f]{64}");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "internal-token-for-tests-0123456789",
                "wrs_gateway_",
                "wrs_shop_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "wrs_Gateway_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "wrs_gateway_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "wrs_gateway_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "wrs_gateway_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                "wrs_gateway_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+",
                "wrs__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "WRS_gateway_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            })
    void refusesTextOfAnyOtherForm(String text) {
        assertThat(ServiceCredential.parse(text)).isEmpty();
        assertThat(ServiceCredential.serviceOf(text)).isNull();
    }

    @Test
    void aSecretMayContainUnderscoresAfterTheService() {
        String text = "wrs_booking_" + "_".repeat(43);

        assertThat(ServiceCredential.serviceOf(text)).isEqualTo(WaitroomService.BOOKING);
        assertThatThrownBy(() -> new ServiceCredential(WaitroomService.GATEWAY, text))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
